import { serverId } from '../../../platform/arguments';
import type { ConsoleOutput } from '../../../platform/logger';
import { fx } from '../../../platform/natives';
import { tellPlayer } from '../../ranks/fivem/rank-command';

const USAGE = 'usage: hours [id] — your hours on duty for 7 and 30 days, or (with roster.manage) a player’s';

export interface HoursCommandDeps {
  /** Hours on duty of an online player in the last `days`; null when unknown. */
  hours(src: string, days: number): number | null;
  name(src: string): string;
  isOnline(src: string): boolean;
  /** Duty sessions are being read (the key has timelogs:read and the fields are known). */
  reading(): boolean;
  output: ConsoleOutput;
}

/** The answer to `hours …` typed by `actor` (null: the console). */
export function hoursAnswer(deps: HoursCommandDeps, args: readonly string[], actor: string | null): string {
  if (args.length > 1) return USAGE;
  const target = args.length === 1 ? serverId(args[0]) : actor;
  if (target === null) return USAGE;
  if (actor !== null && target !== actor && !fx.IsPlayerAceAllowed(actor, 'roster.manage'))
    return 'You may see only your own hours (seeing anyone’s needs roster.manage).';
  if (!deps.isOnline(target)) return `No player ${target} is online.`;
  if (!deps.reading()) return 'Duty hours are not read on this server.';
  const week = deps.hours(target, 7);
  const month = deps.hours(target, 30);
  const who = target === actor ? 'You' : deps.name(target);
  if (week === null || month === null) return `${who}: duty hours are not known yet.`;
  return `${who}: ${week} h on duty in the last 7 days, ${month} h in the last 30 days.`;
}

/**
 * `hours [id]` for players (their own, anyone's with `roster.manage`) and the console (anyone's).
 * A player is answered in chat, the console in the console.
 */
export function registerHoursCommand(deps: HoursCommandDeps): void {
  fx.RegisterCommand(
    'hours',
    (src, args) => {
      const actor = Number(src) > 0 ? String(src) : null;
      const text = hoursAnswer(deps, Array.isArray(args) ? args.map(String) : [], actor);
      if (actor === null) deps.output.print(text);
      else tellPlayer(actor, text);
    },
    false,
  );
}
