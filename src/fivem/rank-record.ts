import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../core/ports';
import type { RankChange } from '../core/ranks/rank-changes';
import { fx } from './natives';

export const RANK_LOG_FILE = 'rank-changes.log';

/** A name as one safe token: quoted, newlines and control characters escaped, bounded. */
function quoted(text: string): string {
  return JSON.stringify(text.slice(0, 64));
}

/** One line of `rank-changes.log`: time, actor (name, license), target, department, from, to. */
export function rankLogLine(change: RankChange, at: number): string {
  const { actor, target, department } = change;
  const who =
    actor.src === null
      ? `${quoted(actor.name)}`
      : `${quoted(actor.name)} (player ${actor.src}, ${actor.license ?? 'no license'})`;
  return [
    new Date(at).toISOString(),
    `actor=${who}`,
    `target=${quoted(target.name)} (player ${target.src}, member ${target.memberId})`,
    `department=${quoted(department.shortName ?? department.name)}`,
    `from=${quoted(change.from?.name ?? 'none')}`,
    `to=${quoted(change.to.name)}`,
  ].join(' ');
}

/**
 * Keeps the resource's own record of who in the game changed a rank (the service attributes every
 * change to the key's owner): a console line, a line appended to `rank-changes.log` in the resource
 * folder, and `roster:rankChanged` for other resources. Never the key.
 */
export function rankChangeRecorder(
  resourcePath: string | null,
  logger: Logger,
  now: () => number,
): (change: RankChange) => void {
  return (change) => {
    const line = rankLogLine(change, now());
    logger.info(`rank change: ${line}`);
    if (resourcePath) {
      try {
        appendFileSync(join(resourcePath, RANK_LOG_FILE), `${line}\n`);
      } catch (error) {
        logger.warn(`could not append to ${RANK_LOG_FILE}: ${(error as Error).message}`);
      }
    }
    fx.emit('roster:rankChanged', Number(change.target.src), {
      department: change.department,
      from: change.from,
      to: change.to,
      actor: change.actor.src === null ? 0 : Number(change.actor.src),
    });
  };
}
