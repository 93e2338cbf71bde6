import type { EventBus } from './event-bus';
import type { FuncRefRegistry } from './funcrefs';
import type { LogSink } from './log-sink';

/** What a resource runtime needs from the server around it. */
export interface Kernel {
  readonly bus: EventBus;
  readonly refs: FuncRefRegistry;
  readonly log: LogSink;
  /** The server's game time in ms (host `Date.now()`, so vitest fake timers move it). */
  now(): number;
}

/** `^1SCRIPT ERROR in <where>: <error>^7` and the stack, as main.js `printError` prints it. */
export function formatScriptError(where: string, error: unknown): string {
  const text = describe(error);
  const stack =
    typeof error === 'object' && error !== null && typeof (error as { stack?: unknown }).stack === 'string'
      ? (error as { stack: string }).stack.split('\n').slice(1).join('\n')
      : '';
  return `^1SCRIPT ERROR in ${where}: ${text}^7${stack ? `\n${stack}` : ''}`;
}

function describe(error: unknown): string {
  try {
    return String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}
