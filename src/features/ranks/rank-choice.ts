import type { CatalogIndex, RankOrder } from '../../roster/catalog-index';
import type { ApiRank, Department, Rank } from '../../roster/model';
import { type Refusal, refuse } from './rank-change';

/** The rank to set, given the target's rank on the roster now (a step depends on it). */
export type Choice = (current: Rank | null) => ApiRank | Refusal;

/** The rank named `rank` (id or name) in `department`; when it has none, a refusal listing its ranks. */
export function namedChoice(
  catalog: CatalogIndex,
  order: RankOrder,
  department: Department,
  rank: string,
): Choice | Refusal {
  const wanted = catalog.rankIn(department.id, rank);
  if (wanted) return () => wanted;
  const names = catalog.ladder(department.id, order).map((r) => r.name);
  return refuse(
    `${department.shortName ?? department.name} has no rank "${rank}"${names.length > 0 ? `; its ranks: ${names.join(', ')}` : ''}.`,
  );
}

/**
 * One step up (`promote`) or down (`demote`) the department's `ladder` (most senior first) from
 * the rank held now; no rank counts as below the lowest, so a demotion from none is refused.
 */
export function stepChoice(
  ladder: readonly ApiRank[],
  direction: 'promote' | 'demote',
  label: string,
  name: string,
): Choice {
  return (current) => {
    const at = current ? ladder.findIndex((r) => r.id === current.id) : ladder.length;
    if (current && at < 0) return refuse(`${current.name} is not on the ${label} rank ladder; use rank set.`);
    const next = direction === 'promote' ? ladder[at - 1] : ladder[at + 1];
    if (next) return next;
    const end = direction === 'promote' ? 'the highest' : current ? 'the lowest' : 'no';
    return refuse(`${name} already holds ${end} rank in ${label}.`);
  };
}
