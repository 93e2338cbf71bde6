import type { Lane } from '../http';
import type { ApiAssignment, Catalog, KeyIdentity, MemberFound, MemberLookup } from './model';

export type { Lane };

/** What the resource needs from the roster API client. */
export interface RosterSource {
  whoami(): Promise<KeyIdentity>;
  lookup(license: string, lane: Lane): Promise<MemberLookup | null>;
  /** The member record alone: enough to decide a join on status. */
  member(license: string, lane: Lane): Promise<MemberFound | null>;
  assignmentsOf(memberId: string, lane: Lane): Promise<ApiAssignment[]>;
  lookupMany(licenses: readonly string[], lane: Lane): Promise<Map<string, MemberLookup | null>>;
  catalog(options?: { force?: boolean }): Promise<Catalog>;
  /** About how long a new request in this lane would wait for the rate limiter, in ms. */
  estimateWaitMs(lane: Lane): number;
}
