import type { Logger } from './ports';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export interface ConsoleOutput {
  logger: Logger;
  /** Prints whatever the level (command answers), redacted like the log. */
  print(line: string): void;
}

/**
 * Control characters (newline, carriage return, escape…) become `?`: a player's name or a service's
 * message must never start a line of its own that reads like one of ours, or drive the terminal.
 */
export function printable(text: string): string {
  // \p{Cc} is every C0/C1 control character; U+2028/2029 end lines in some consoles.
  return text.replace(/[\p{Cc}\u2028\u2029]/gu, '?');
}

/**
 * Output to the server console, which already tags each line with `script:<resource>`. Every line
 * passes through `redact`, so a secret that slipped into a dependency's error message is still never
 * printed, and through `printable`, so nothing in it can forge another line.
 */
export function consoleOutput(level: LogLevel, secrets: () => readonly string[]): ConsoleOutput {
  const redact = (text: string): string => {
    let out = printable(text);
    for (const secret of secrets()) if (secret.length >= 8) out = out.split(secret).join('[redacted]');
    return out;
  };
  const write = (at: LogLevel, label: string) => (message: string) => {
    if (RANK[at] <= RANK[level]) console.log(`${label}${redact(message)}`);
  };
  return {
    logger: {
      error: write('error', 'ERROR: '),
      warn: write('warn', 'warning: '),
      info: write('info', ''),
      debug: write('debug', 'debug: '),
    },
    print: (line) => console.log(redact(line)),
  };
}
