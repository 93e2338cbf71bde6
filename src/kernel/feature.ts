import type { CatalogIndex } from '../roster/catalog-index';
import type { KeyIdentity, Member } from '../roster/model';
import type { PlayerEntry } from '../roster/player-registry';
import type { JoinCheck } from './join-check';
import type { JoinDecision } from './join-decision';

/**
 * What one feature hooks into, every hook optional: the moments that several features hear of.
 * A feature registers its own handlers, exports and commands when attached, and its timers when
 * started. Each hook is called on every feature that has it, in the order the features are
 * listed. A value one feature asks another for goes through that feature's handle instead
 * (`handle.ts`), never through a hook.
 */
export interface Feature {
  // The resource's life.
  /** On `onResourceStart`. */
  start?(): void;
  /** On `onResourceStart`, once every feature's `start` ran: the roster side is up. */
  rosterStarted?(): void;
  /** On `onResourceStop`; synchronous, as FXServer tears the resource down right after. */
  stop?(): void;
  /** Every minute, after connecting players that never joined were forgotten. */
  sweep?(): void;

  // The key, departments and ranks.
  /** The key was verified: the community and the scopes it may use. */
  ready?(identity: KeyIdentity): void;
  /** The key, checked again while it lacked a scope the resource can use, carries other scopes now. */
  scopesChanged?(identity: KeyIdentity): void;
  /** Departments and ranks as read at start (after the key check) and by each periodic reload. */
  departmentsRead?(catalog: CatalogIndex): void;
  /** Every (re)load of departments and ranks, whatever asked for it (a join, the periodic reload). */
  catalogLoaded?(catalog: CatalogIndex): void;

  // Players and their joins.
  /** A further check a joining player must pass once the roster admits them. */
  joinCheck?: JoinCheck;
  /** The gate is about to admit a connecting player (before `done()`). */
  admitted?(tempId: string): void;
  /** The gate decided on a connecting player; called synchronously, so it must be cheap. */
  decided?(decision: JoinDecision): void;
  /** An online player's roster data is announced: called before the event and the state bag. */
  playerLoaded?(src: string, member: Member | null): void;
  /** An online player's roster data changed: called before the event and the state bag. */
  playerUpdated?(src: string, member: Member | null, previous: Member | null): void;
  /** A player left. */
  dropped?(entry: PlayerEntry): void;
  /** A roster request's status, or null when nothing came back. */
  answered?(status: number | null): void;

  // The audit log.
  /**
   * The audit feed started (in a `ready` or `scopesChanged` hook, so before those of the features
   * listed after): the audit feature's handle gives it from now on.
   */
  auditFeedStarted?(): void;
  /** A read of the audit log brought these entries, not handled before (before they are matched). */
  auditEntries?(fresh: readonly unknown[]): void;
  /** Entries of the audit log could not be read (`reason`): changes in that gap were missed. */
  auditGap?(reason: string): void;

  // What the owner reads.
  /** Lines added to `roster status`, after the roster's own. */
  statusLines?(): string[];
  /** Lines added to `roster doctor`, after the roster's own checks. */
  doctorLines?(): string[] | Promise<string[]>;
}

/** The attached features, in list order; each method calls one hook on all of them. */
export class Features {
  private readonly attached: Feature[] = [];

  add(feature: Feature): void {
    this.attached.push(feature);
  }

  start(): void {
    for (const feature of this.attached) feature.start?.();
    for (const feature of this.attached) feature.rosterStarted?.();
  }

  stop(): void {
    for (const feature of this.attached) feature.stop?.();
  }

  sweep(): void {
    for (const feature of this.attached) feature.sweep?.();
  }

  ready(identity: KeyIdentity): void {
    for (const feature of this.attached) feature.ready?.(identity);
  }

  scopesChanged(identity: KeyIdentity): void {
    for (const feature of this.attached) feature.scopesChanged?.(identity);
  }

  departmentsRead(catalog: CatalogIndex): void {
    for (const feature of this.attached) feature.departmentsRead?.(catalog);
  }

  catalogLoaded(catalog: CatalogIndex): void {
    for (const feature of this.attached) feature.catalogLoaded?.(catalog);
  }

  joinChecks(): JoinCheck[] {
    return this.attached.flatMap((feature) => (feature.joinCheck ? [feature.joinCheck] : []));
  }

  admitted(tempId: string): void {
    for (const feature of this.attached) feature.admitted?.(tempId);
  }

  decided(decision: JoinDecision): void {
    for (const feature of this.attached) feature.decided?.(decision);
  }

  playerLoaded(src: string, member: Member | null): void {
    for (const feature of this.attached) feature.playerLoaded?.(src, member);
  }

  playerUpdated(src: string, member: Member | null, previous: Member | null): void {
    for (const feature of this.attached) feature.playerUpdated?.(src, member, previous);
  }

  dropped(entry: PlayerEntry): void {
    for (const feature of this.attached) feature.dropped?.(entry);
  }

  answered(status: number | null): void {
    for (const feature of this.attached) feature.answered?.(status);
  }

  auditFeedStarted(): void {
    for (const feature of this.attached) feature.auditFeedStarted?.();
  }

  auditEntries(fresh: readonly unknown[]): void {
    for (const feature of this.attached) feature.auditEntries?.(fresh);
  }

  auditGap(reason: string): void {
    for (const feature of this.attached) feature.auditGap?.(reason);
  }

  statusLines(): string[] {
    return this.attached.flatMap((feature) => feature.statusLines?.() ?? []);
  }

  /** One feature after the other, so each one's own deadline starts when its turn comes. */
  async doctorLines(): Promise<string[]> {
    const lines: string[] = [];
    for (const feature of this.attached)
      if (feature.doctorLines) lines.push(...(await feature.doctorLines()));
    return lines;
  }
}
