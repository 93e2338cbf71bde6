import type { LogLevel } from '../core/config';
import type { Logger } from '../core/ports';

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/**
 * Console logger for the server console. Every line passes through `redact`, so a secret that
 * slipped into an error message from a dependency is still never printed.
 */
export function consoleLogger(level: LogLevel, secrets: () => readonly string[]): Logger {
  const redact = (text: string): string => {
    let out = text;
    for (const secret of secrets()) if (secret.length >= 8) out = out.split(secret).join('[redacted]');
    return out;
  };
  const write = (at: LogLevel, label: string) => (message: string) => {
    if (RANK[at] <= RANK[level]) console.log(`[roster] ${label}${redact(message)}`);
  };
  return {
    error: write('error', 'ERROR: '),
    warn: write('warn', 'warning: '),
    info: write('info', ''),
    debug: write('debug', 'debug: '),
  };
}
