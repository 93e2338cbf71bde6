import type { ShareRole } from './share-roles';
import type { SharedBudget } from './share-store';

/** What `roster status`, `roster doctor` and the panel say about sharing. */
export interface ShareReport {
  on: boolean;
  role: ShareRole;
  server: string;
  /** Why sharing is off for this server; null while on. */
  off: string | null;
  reader: string | null;
  /** Milliseconds the reader's lease still runs (as of the last read); null: none runs. */
  leaseLeftMs: number | null;
  /** The shared roster's version, and this server's copy's. */
  version: number | null;
  held: number;
  /** Versions the copy is behind; when it last read the database (this server's time). */
  lag: number | null;
  syncedAt: number | null;
  complete: boolean;
  budget: SharedBudget | null;
  pending: number;
}
