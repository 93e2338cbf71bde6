import { serverId } from '../../../platform/arguments';
import { errorMessage } from '../../../platform/error-message';
import type { ConsoleOutput } from '../../../platform/logger';
import { fx } from '../../../platform/natives';
import type { Logger } from '../../../platform/ports';
import type { RankChangeResult, RankChanges } from '../rank-changes';

const USAGE =
  'usage: rank promote <id> [department] | rank demote <id> [department] | rank set <id> <department> <rank>';

interface ChatFx {
  /** TriggerClientEvent: the stock chat resource shows `chat:addMessage` (cl_chat.lua). */
  emitNet(event: string, target: number, ...args: unknown[]): void;
}

/** A line in one player's chat, from "Roster". */
export function tellPlayer(src: string, text: string): void {
  (fx as unknown as ChatFx).emitNet('chat:addMessage', Number(src), { args: ['Roster', text] });
}

/** Parses `rank …` arguments and runs the change; the answer is one sentence. */
export async function runRankCommand(
  ranks: RankChanges,
  args: readonly string[],
  actor: string | null,
): Promise<string> {
  const [sub = '', id = '', ...rest] = args;
  const target = serverId(id);
  const verb = sub.toLowerCase();
  if (target === null || !['promote', 'demote', 'set'].includes(verb)) return USAGE;
  let result: RankChangeResult;
  if (verb === 'set') {
    const [department, ...rank] = rest;
    if (department === undefined || rank.length === 0) return USAGE;
    result = await ranks.setRank(target, department, rank.join(' '), actor);
  } else {
    const department = rest.length > 0 ? rest.join(' ') : null;
    result = await ranks.step(target, department, verb as 'promote' | 'demote', actor);
  }
  if (!result.ok) return result.reason;
  const { change } = result;
  return `${change.target.name} (player ${target}) is now ${change.to.name} in ${change.department.shortName ?? change.department.name} (was ${change.from?.name ?? 'no rank'}).`;
}

/**
 * `rank promote|demote|set` for players and the console. The command is open to every player: the
 * authority rules (rank and `roster.manage`) decide, and the player is answered in chat.
 */
export function registerRankCommand(
  ranks: () => RankChanges | null,
  output: ConsoleOutput,
  logger: Logger,
): void {
  // One change at a time per player: a macro cannot stack requests.
  const busy = new Set<string>();
  fx.RegisterCommand(
    'rank',
    (src, args) => {
      const actor = Number(src) > 0 ? String(src) : null;
      const answer = (text: string) => (actor === null ? output.print(text) : tellPlayer(actor, text));
      const changes = ranks();
      if (changes === null) return answer("The roster isn't set up on this server; ranks cannot be changed.");
      const key = actor ?? 'console';
      if (actor !== null && busy.has(key)) return answer('Your last rank command is still running.');
      busy.add(key);
      runRankCommand(changes, Array.isArray(args) ? args.map(String) : [], actor)
        .then(answer, (error: unknown) => {
          logger.warn(`rank command failed: ${errorMessage(error)}`);
          answer('The rank change failed; try again.');
        })
        .finally(() => busy.delete(key));
    },
    false,
  );
}
