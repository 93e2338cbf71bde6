import type { LogEntry } from '../emulator';

/**
 * Lines of the server console a newcomer would have to decode: the resource's warnings and errors
 * (src/platform/logger.ts prints them as `warning: …` and `ERROR: …`), any SCRIPT ERROR or Node
 * warning (an unhandled rejection), and the console refusing a line (server.cfg lacking an ACE,
 * a mistyped command or access type).
 */
/** What FXServer's console prints when it refuses a line (dev/emulator/server-console.ts). */
const CONSOLE_REFUSAL =
  /^(Access denied for command|No such command|Access type needs to be|Changing ones own access|Argument count mismatch)\b/;

export function problemLines(entries: readonly LogEntry[]): string[] {
  return entries
    .filter(
      ({ resource, text }) =>
        text.includes('SCRIPT ERROR') ||
        /^\(node:\d+\) \w*Warning: /.test(text) ||
        (resource === 'roster' && /^(warning|ERROR): /.test(text)) ||
        (resource === 'server' && CONSOLE_REFUSAL.test(text)),
    )
    .map(({ resource, text }) => `[${resource}] ${text}`);
}
