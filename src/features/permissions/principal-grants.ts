import type { Logger } from '../../platform/ports';
import {
  isSafePrincipal,
  linkKey,
  type PrincipalLink,
  playerPrincipal,
} from '../../platform/principal-names';
import { CatalogIndex, type RankOrder } from '../../roster/catalog-index';
import { statusAdmits } from '../../roster/member-status';
import type { Member } from '../../roster/model';
import { buildLadders, type Ladders } from './ladders';
import { diffLinks } from './link-diff';
import { memberPrincipals } from './member-principals';
import { type LedgerStore, PrincipalLedger } from './principal-ledger';
import { WantedLinks } from './wanted-links';

export type { LedgerStore } from './principal-ledger';

/** The host's ACL: `add_principal` / `remove_principal`, and whether this resource may run them. */
export interface PrincipalCommands {
  permitted(): boolean;
  add(link: PrincipalLink): void;
  remove(link: PrincipalLink): void;
}

export interface PrincipalGrantsDeps {
  commands: PrincipalCommands;
  ledger: LedgerStore;
  logger: Logger;
  prefix: string;
  order: RankOrder;
  requireStatus: readonly string[];
  /** Said once when the resource may not change principals: names the server.cfg lines to add. */
  blockedMessage: string;
}

/** The holder of the ladder links, beside the players. */
const LADDER: object = Object.freeze({ ladder: true });

/**
 * Keeps the ACL's principal links equal to what the roster says: the ladders of the catalog and one
 * set of links per player holding (a connecting or joined client). Links are counted, so two
 * clients of one license share them and each is added once (FXServer's inheritance is a multimap
 * whose remove_principal removes every copy, se/Security.cpp). Every link added is in the ledger
 * before the command runs, so a start after a crash can remove what this run left.
 */
export class PrincipalGrants {
  private ladders: Ladders;
  private readonly wanted = new WantedLinks();
  private readonly granted = new Map<string, PrincipalLink>();
  private readonly ledger: PrincipalLedger;
  private readonly admits: (status: string) => boolean;
  private active = false;
  private saidBlocked = false;
  /** Catalog problems already told: a catalog read again says each one once, not every reload. */
  private saidProblems = new Set<string>();

  constructor(private readonly deps: PrincipalGrantsDeps) {
    this.admits = statusAdmits(deps.requireStatus);
    this.ledger = new PrincipalLedger(deps.ledger, deps.logger);
    this.ladders = buildLadders(new CatalogIndex(), deps.order, deps.prefix);
  }

  /** True while the resource may change principals and does. */
  get granting(): boolean {
    return this.active;
  }

  get currentLadders(): Ladders {
    return this.ladders;
  }

  /** How many links are in the ACL now. */
  get grantedCount(): number {
    return this.granted.size;
  }

  /**
   * At start, and again whenever the permission may have been added: while it is missing, says so
   * once; when present, removes what the ledger lists (a previous run that never stopped cleanly),
   * then grants what is wanted now. Returns the number of leftover links removed.
   */
  activate(): number {
    if (this.active) return 0;
    if (!this.deps.commands.permitted()) {
      if (!this.saidBlocked) this.deps.logger.warn(this.deps.blockedMessage);
      this.saidBlocked = true;
      return 0;
    }
    this.active = true;
    if (this.saidBlocked) this.deps.logger.info('may now change principals: granting roster principals.');
    const leftover = this.ledger.readLeftover();
    for (const link of leftover) this.deps.commands.remove(link);
    this.ledger.rewrite(this.granted);
    this.sync(this.wanted.keys());
    return leftover.length;
  }

  /** Rebuilds the ladders from a new catalog; old links no longer wanted are removed. */
  setCatalog(catalog: CatalogIndex): void {
    // The previous ladders decide who keeps a principal two departments would share.
    this.ladders = buildLadders(catalog, this.deps.order, this.deps.prefix, this.ladders);
    for (const problem of this.ladders.problems) {
      if (!this.saidProblems.has(problem)) this.deps.logger.warn(`permissions: ${problem}`);
    }
    this.saidProblems = new Set(this.ladders.problems);
    const touched = new Set<string>();
    this.wanted.replace(LADDER, { license: null, member: null, links: this.ladders.links }, touched);
    for (const [holder, holding] of this.wanted.holders()) {
      if (holder === LADDER) continue;
      this.wanted.replace(
        holder,
        { ...holding, links: this.playerLinks(holding.license, holding.member) },
        touched,
      );
    }
    this.sync(touched);
  }

  /** Sets one client's grants from their member record (`null`: not on the roster, none). */
  hold(holder: object, license: string | null, member: Member | null): void {
    const touched = new Set<string>();
    this.wanted.replace(holder, { license, member, links: this.playerLinks(license, member) }, touched);
    this.sync(touched);
  }

  /** The client left (or was never admitted): its grants go unless another client of the license holds them. */
  release(holder: object): void {
    if (!this.wanted.holds(holder)) return;
    const touched = new Set<string>();
    this.wanted.replace(holder, null, touched);
    this.sync(touched);
  }

  /** Releases every client not in `holders` (e.g. connecting players swept after they never joined). */
  retain(holders: ReadonlySet<object>): number {
    const touched = new Set<string>();
    let released = 0;
    for (const [holder] of [...this.wanted.holders()]) {
      if (holder === LADDER || holders.has(holder)) continue;
      this.wanted.replace(holder, null, touched);
      released++;
    }
    this.sync(touched);
    return released;
  }

  /** Resource stop: every link this run granted is removed and the ledger emptied. */
  stop(): void {
    const touched = new Set(this.wanted.keys());
    this.wanted.clear();
    this.sync(touched);
    // Everything granted is removed: the ledger is left empty, not merely stale.
    if (this.active && this.ledger.size > 0) this.ledger.rewrite(this.granted);
  }

  private playerLinks(license: string | null, member: Member | null): PrincipalLink[] {
    const child = license === null ? null : playerPrincipal(license);
    if (child === null) return [];
    return memberPrincipals(member, this.ladders, this.admits).map((parent) => ({ child, parent }));
  }

  /** Brings the touched links of the ACL in line with what is wanted: removals first, so a change never briefly grants both. */
  private sync(keys: Iterable<string>): void {
    if (!this.active) return;
    const desired = new Set<string>();
    const current = new Set<string>();
    for (const key of keys) {
      if (this.wanted.has(key)) desired.add(key);
      if (this.granted.has(key)) current.add(key);
    }
    const { add, remove } = diffLinks(desired, current);
    if (add.length === 0 && remove.length === 0) return;
    const adding = add.map((key) => this.wanted.link(key)).filter((l) => l !== undefined);
    // Write-ahead: the ledger names a link before the ACL holds it. New links are appended (a
    // storm grants hundreds, one at a time: rewriting the whole file each time would be quadratic);
    // links removed stay listed, harmlessly, until the file is rewritten.
    const unlisted = adding.filter((link) => !this.ledger.lists(link));
    if (unlisted.length > 0) this.ledger.append(unlisted);
    for (const key of remove) {
      const link = this.granted.get(key);
      if (link) this.deps.commands.remove(link);
      this.granted.delete(key);
    }
    for (const link of adding) {
      // The names were made by the slug rule; checking again costs nothing and guards the console.
      if (!isSafePrincipal(link.child) || !isSafePrincipal(link.parent)) continue;
      this.deps.commands.add(link);
      this.granted.set(linkKey(link), link);
    }
    this.ledger.rewriteIfOvergrown(this.granted);
  }
}
