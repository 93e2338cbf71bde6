import type { Lane } from '../limiter/lane';
import type { Catalog, KeyIdentity, MemberLookup } from '../model';

export type { Lane };

/** What the resource needs from the roster API client. */
export interface RosterSource {
  whoami(): Promise<KeyIdentity>;
  lookup(license: string, lane: Lane): Promise<MemberLookup | null>;
  lookupMany(licenses: readonly string[], lane: Lane): Promise<Map<string, MemberLookup | null>>;
  catalog(): Promise<Catalog>;
  /** About how long a new request in this lane would wait for the rate limiter, in ms. */
  estimateWaitMs(lane: Lane): number;
}
