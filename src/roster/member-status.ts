import { matchKey } from './catalog-index';

/**
 * Whether a member's status admits them: one of `gate.requireStatus`, case and surrounding spaces
 * aside. The one rule for every place that asks (the join gate, principals, jobs, rank authority,
 * queue priority, `isOnRoster`), so a status never admits in one and not in another.
 */
export function statusAdmits(requireStatus: readonly string[]): (status: string) => boolean {
  const admitted = new Set(requireStatus.map(matchKey));
  return (status) => admitted.has(matchKey(status));
}
