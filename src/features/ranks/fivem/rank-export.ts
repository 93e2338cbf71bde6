import { key, serverId } from '../../../platform/arguments';
import { fx } from '../../../platform/natives';
import type { ExportAnswers } from '../../exports/fivem/safe-exports';
import type { RankChanges } from '../rank-changes';

const RANK_FAILED = {
  ok: false,
  reason: 'The rank change failed inside the roster resource; see the server console.',
};

const NO_ACTOR =
  "actor is missing: pass the acting player's server id, or 0 to act as this resource. A missing actor is never taken for the console (a Lua `source` read after Wait() is nil: copy it first).";

/** `setRank`: a rank change asked by another resource, for a player or as the resource itself. */
export function rankExports(ranks: RankChanges): ExportAnswers {
  return {
    setRank: [
      async (target, department, rank, actor) => {
        const src = serverId(target);
        const d = key(department);
        const r = key(rank);
        if (src === null) return { ok: false, reason: 'target must be the server id of an online player.' };
        if (d === null || r === null)
          return { ok: false, reason: 'department and rank must be names or ids.' };
        // Only an explicit 0 is the calling resource (or the console): a Lua `source` read after a
        // Wait() is nil, and a missing actor must never be taken for the console.
        if (actor === undefined || actor === null) return { ok: false, reason: NO_ACTOR };
        const trusted = actor === 0 || actor === '0';
        const by = trusted ? null : serverId(actor);
        if (!trusted && by === null) return { ok: false, reason: 'actor must be a player server id, or 0.' };
        const via = `resource ${fx.GetInvokingResource?.() ?? 'unknown'}`;
        const result = await ranks.setRank(src, d, r, by, via);
        return result.ok ? { ok: true, member: result.member } : { ok: false, reason: result.reason };
      },
      RANK_FAILED,
    ],
  };
}
