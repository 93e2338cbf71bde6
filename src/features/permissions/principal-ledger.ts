import { errorMessage } from '../../platform/error-message';
import type { Logger } from '../../platform/ports';
import { linkKey, type PrincipalLink } from '../../platform/principal-names';
import { formatLedger, formatLedgerLines, parseLedger } from './ledger';

/** Where the ledger lives (a file in the resource folder); `write` replaces it atomically. */
export interface LedgerStore {
  read(): string | null;
  write(text: string): void;
  /** Adds lines at the end (a line cut short by a crash is skipped when read back). */
  append(text: string): void;
}

/** The ledger is rewritten without links no longer held once it lists this many more than held. */
const LEDGER_SLACK = 256;

/**
 * The ledger as this run keeps it: what a previous run left is read back once granting starts,
 * new links are appended before the ACL holds them, and the file is rewritten to what is granted
 * once it lists far more. A store that fails never stops granting.
 */
export class PrincipalLedger {
  /** Links the ledger file lists: what is granted, and links since removed until the next rewrite. */
  private listed = new Set<string>();
  private saidFailure = false;

  constructor(
    private readonly store: LedgerStore,
    private readonly logger: Logger,
  ) {}

  /** How many links the file lists. */
  get size(): number {
    return this.listed.size;
  }

  lists(link: PrincipalLink): boolean {
    return this.listed.has(linkKey(link));
  }

  /** The links a previous run left (one that never stopped cleanly); none when unreadable. */
  readLeftover(): PrincipalLink[] {
    try {
      const text = this.store.read();
      if (text === null) return [];
      const { links, skipped } = parseLedger(text);
      if (skipped > 0) this.logger.warn(`permissions: ignored ${skipped} unreadable ledger line(s).`);
      if (links.length > 0) {
        this.logger.info(`permissions: removing ${links.length} principal link(s) a previous run left.`);
      }
      return links;
    } catch (error) {
      this.logger.warn(`permissions: could not read the ledger: ${errorMessage(error)}`);
      return [];
    }
  }

  /** Replaces the file with exactly the links `granted` holds. */
  rewrite(granted: ReadonlyMap<string, PrincipalLink>): void {
    try {
      this.store.write(formatLedger(granted.values()));
      this.listed = new Set(granted.keys());
    } catch (error) {
      this.failed(error);
    }
  }

  /** Rewrites the file once it lists far more links than `granted` holds. */
  rewriteIfOvergrown(granted: ReadonlyMap<string, PrincipalLink>): void {
    if (this.listed.size > 2 * granted.size + LEDGER_SLACK) this.rewrite(granted);
  }

  append(links: readonly PrincipalLink[]): void {
    try {
      this.store.append(formatLedgerLines(links));
      for (const link of links) this.listed.add(linkKey(link));
    } catch (error) {
      this.failed(error);
    }
  }

  private failed(error: unknown): void {
    // Granting goes on: the ledger only matters after a crash, and the owner is told once.
    if (!this.saidFailure) {
      this.logger.warn(
        `permissions: could not write the ledger (${errorMessage(error)}); after a crash, grants may stay until the server restarts.`,
      );
    }
    this.saidFailure = true;
  }
}
