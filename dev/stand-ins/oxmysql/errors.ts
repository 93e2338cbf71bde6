import { nodeRejectionWarning } from '../../emulator/unhandled-rejections';
import { type Callback, fx } from './fx';

/** Who called and how it wants to hear of a failure. */
export interface Caller {
  readonly resource: string | null;
  readonly callback: Callback | undefined;
  /** The wrappers' flag: a failure goes to the callback as `(null, message)` instead of the console. */
  readonly promise: boolean;
}

function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) return String((error as Error).message);
  // A Lua caller's error text loses its script position.
  return String(error).replace(/SCRIPT ERROR: citizen:[\w/.]+:\d+[:\s]+/, '');
}

/**
 * A query that failed (oxmysql src/logger/index.ts logError): `oxmysql:error` goes to every
 * resource; then a caller with a callback and the promise flag gets `(null, text)`, anyone else
 * only a console line: **a plain callback is never called on failure**.
 */
export function reportQueryError(
  caller: Caller,
  error: unknown,
  query?: unknown,
  params?: unknown,
  withParams = false,
): void {
  const message = messageOf(error);
  const text = [
    `${caller.resource} was unable to execute a query!`,
    ...(query ? [`Query: ${query}`] : []),
    ...(withParams ? [JSON.stringify(params)] : []),
    message,
  ].join('\n');
  fx.emit('oxmysql:error', { query, parameters: params, message, err: error, resource: caller.resource });
  if (caller.callback && caller.promise) {
    try {
      caller.callback(null, text);
    } catch {
      // The caller's own failure is its business.
    }
    return;
  }
  console.error(text);
}

/**
 * Hands an answer to the caller's callback. A callback that throws a string (a Lua error) is
 * printed; anything else it throws is dropped, as oxmysql does.
 */
export function answer(caller: Caller, value: unknown): void {
  if (!caller.callback) return;
  try {
    caller.callback(value);
  } catch (error) {
    if (typeof error !== 'string') return;
    console.log(
      error.includes('SCRIPT ERROR:')
        ? error
        : `^1SCRIPT ERROR in invoking resource ${caller.resource}: ${error}^0`,
    );
  }
}

/**
 * oxmysql starts each query without awaiting it, and a pool that cannot hand out a connection
 * (the server went away after start) rejects outside its try: the caller never hears back, and
 * FXServer prints Node's unhandled-rejection warning. Printed here rather than left unhandled, so
 * the emulator does not count oxmysql's own lost promise against the resource under test.
 */
export function printLost(error: unknown): void {
  for (const line of nodeRejectionWarning(error)) console.error(line);
}
