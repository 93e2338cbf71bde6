import type { RankOrder } from '../../roster/catalog-index';
import type { ApiRank, Rank } from '../../roster/model';

/** True when `rank` is strictly more senior than `than` under the rank order. */
export function isAbove(rank: number, than: number, order: RankOrder): boolean {
  return order === 'top-down' ? rank < than : rank > than;
}

export interface AuthorityCase {
  /** The acting player's rank in the department; null when they hold none there. */
  actor: Rank | null;
  /** The target's rank there now; null (no rank) counts as below every rank. */
  current: Rank | null;
  /** The rank to be set. */
  wanted: Rank;
  /** The department's ranks, most senior first. */
  ladder: readonly ApiRank[];
  order: RankOrder;
}

export type Authority = { ok: true } | { ok: false; needed: ApiRank | null };

/**
 * A player may set only a rank strictly below their own, and only for a member whose current
 * rank is strictly below their own. When refused, `needed` is the least rank that would do
 * (null: no rank in the department is enough, only `roster.manage`).
 */
export function checkAuthority(c: AuthorityCase): Authority {
  // The more senior of the current and the wanted rank is the bar the actor must be above.
  const bar =
    c.current !== null && isAbove(c.current.position, c.wanted.position, c.order) ? c.current : c.wanted;
  if (c.actor !== null && isAbove(c.actor.position, bar.position, c.order)) return { ok: true };
  const above = c.ladder.filter((r) => isAbove(r.position, bar.position, c.order));
  return { ok: false, needed: above.at(-1) ?? null };
}

export interface ActorCase extends AuthorityCase {
  /** The actor's roster status as just read; null when the roster showed none. */
  status: string | null;
  /** Whether a status admits a member (`gate.requireStatus`). */
  admits: (status: string) => boolean;
  /** The target's name and the department's label, for the sentence. */
  name: string;
  label: string;
}

/**
 * Why a player actor may not make this change, judged on the roster's current data, or null when
 * they may. A rank gives authority only while the actor's own status admits them: a suspended
 * member still online keeps their rank on the roster, not their authority.
 */
export function actorRefusal(c: ActorCase): string | null {
  if (c.actor !== null && c.status === null) {
    return 'The roster did not show your own record, so your authority cannot be confirmed; try again.';
  }
  if (c.status !== null && !c.admits(c.status)) {
    return `Your roster status is ${c.status}, which gives no authority to change ranks.`;
  }
  const authority = checkAuthority(c);
  if (authority.ok) return null;
  const takes = authority.needed
    ? `it takes ${authority.needed.name} or above in ${c.label}`
    : `only staff allowed roster.manage can do that in ${c.label}`;
  const yours = c.actor ? `you are ${c.actor.name}` : `you hold no rank in ${c.label}`;
  return `You may not set ${c.wanted.name} for ${c.name} (now ${c.current?.name ?? 'no rank'}): ${takes}; ${yours}.`;
}
