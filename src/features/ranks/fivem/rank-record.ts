import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../../../platform/error-message';
import { fx } from '../../../platform/natives';
import type { Logger } from '../../../platform/ports';
import type { RankChange } from '../rank-changes';

export const RANK_LOG_FILE = 'rank-changes.log';

/**
 * Characters a log reader may take as the end of a line or that change how a line reads: every
 * control character (C0, DEL, C1 with U+0085), line and paragraph separators (U+2028, U+2029) and
 * format characters (bidi overrides). JSON.stringify escapes C0 only.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** A value as one safe token: bounded, quoted, every unsafe character escaped as `\uXXXX`. */
export function quoted(value: string | number): string {
  return JSON.stringify(String(value).slice(0, 64)).replace(UNSAFE, escapeUnits);
}

/** `\uXXXX` per UTF-16 unit, as JSON writes it (a format character past U+FFFF takes two). */
function escapeUnits(character: string): string {
  let escaped = '';
  for (let i = 0; i < character.length; i++) {
    escaped += `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  return escaped;
}

/**
 * One line of `rank-changes.log`: the time, then `key="value"` for actor, target, department,
 * from and to. Every value is quoted, member ids and licenses too: none can end the line early.
 */
export function rankLogLine(change: RankChange, at: number): string {
  const { actor, target, department } = change;
  const fields: [string, string | number][] = [['actor', actor.name]];
  if (actor.src !== null) {
    fields.push(['actor_player', actor.src], ['actor_license', actor.license ?? 'none']);
  }
  fields.push(
    ['target', target.name],
    ['target_player', target.src],
    ['member', target.memberId],
    ['department', department.shortName ?? department.name],
    ['from', change.from?.name ?? 'none'],
    ['to', change.to.name],
  );
  return [new Date(at).toISOString(), ...fields.map(([key, value]) => `${key}=${quoted(value)}`)].join(' ');
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
        logger.warn(`could not append to ${RANK_LOG_FILE}: ${errorMessage(error)}`);
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
