/** What tells two memberships of one license apart: when each was created, then its id. */
export interface Membership {
  readonly id: string;
  /** As the service stamped it; a membership without a readable stamp counts as the oldest. */
  readonly createdAt?: string | undefined;
}

/**
 * Whether `a` is a more recent membership than `b`: created later, else (the same stamp, or
 * neither readable) the greater id, digits compared as numbers (`m-12` after `m-9`). A license two
 * memberships claim (an old TERMINATED one, a new ACTIVE one) is decided by the newer.
 */
export function isNewerMembership(a: Membership, b: Membership): boolean {
  const at = stampOf(a);
  const bt = stampOf(b);
  if (at !== bt) return at > bt;
  return compareIds(a.id, b.id) > 0;
}

/** The most recent of several memberships; undefined when there are none. */
export function newestMembership<T extends Membership>(memberships: Iterable<T>): T | undefined {
  let newest: T | undefined;
  for (const membership of memberships)
    if (newest === undefined || isNewerMembership(membership, newest)) newest = membership;
  return newest;
}

function stampOf(membership: Membership): number {
  const at = membership.createdAt === undefined ? Number.NaN : Date.parse(membership.createdAt);
  return Number.isFinite(at) ? at : Number.NEGATIVE_INFINITY;
}

const ids = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

function compareIds(a: string, b: string): number {
  const order = ids.compare(a, b);
  // Ids the collator holds equal (never the same string twice here) still need an order.
  return order !== 0 || a === b ? order : a < b ? -1 : 1;
}
