import { errorMessage } from './error-message';
import type { ConsoleOutput } from './logger';
import { fx } from './natives';

/** What each `roster` subcommand answers, as lines for the console. */
export interface RosterCommands {
  status(): string[];
  lookup(target: string): Promise<string[]>;
  refresh(target: string): Promise<string[]>;
  doctor(): Promise<string[]>;
  training(): Promise<string[]>;
}

const USAGE = 'usage: roster <status | lookup <id|license:…> | refresh [id|all] | doctor | training>';

/**
 * The restricted `roster` command (console, or ACE `command.roster`). Answers are printed to the
 * server console, where an owner reads them.
 */
export function registerRosterCommand(commands: RosterCommands, output: ConsoleOutput): void {
  fx.RegisterCommand(
    'roster',
    (_src, args) => {
      const [sub = '', target = ''] = Array.isArray(args) ? args.map(String) : [];
      const print = (lines: string[]) => {
        for (const line of lines) output.print(line);
      };
      const run = async (): Promise<string[]> => {
        switch (sub.toLowerCase()) {
          case 'status':
            return commands.status();
          case 'lookup':
            return target === '' ? [USAGE] : commands.lookup(target);
          case 'refresh':
            return commands.refresh(target === '' ? 'all' : target);
          case 'doctor':
            return commands.doctor();
          case 'training':
            return commands.training();
          default:
            return [USAGE];
        }
      };
      run().then(print, (error: unknown) =>
        output.logger.error(`roster ${sub} failed: ${errorMessage(error)}`),
      );
    },
    true,
  );
}
