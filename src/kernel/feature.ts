import type { ExportAnswers } from '../features/exports/fivem/safe-exports';
import type { JoinCheck } from '../features/join-gate/fivem/gate';
import type { CatalogIndex } from '../roster/catalog-index';
import type { KeyIdentity, Member } from '../roster/model';
import type { PlayerEntry } from '../roster/player-registry';
import type { RosterContext } from './context';
import type { JoinDecision } from './join-decision';

/**
 * What one capability hooks into, every hook optional. A capability registers its own handlers,
 * exports and commands when attached, and its timers when started; the hooks are how the rest of
 * the resource reaches it.
 * Each hook is called on every capability that has it, in the order the capabilities are listed.
 */
export interface Capability {
  /** On `onResourceStart`. */
  start?(): void;
  /** On `onResourceStart`, once every capability's `start` ran: the roster side is up. */
  rosterStarted?(): void;
  /** On `onResourceStop`; synchronous, as FXServer tears the resource down right after. */
  stop?(): void;
  /** The key was verified: the community and the scopes it may use. */
  ready?(identity: KeyIdentity): void;
  /** The key, checked again while it lacked a scope the resource can use, carries other scopes now. */
  scopesChanged?(identity: KeyIdentity): void;
  /** Departments and ranks as read at start (after the key check) and by each periodic reload. */
  departmentsRead?(catalog: CatalogIndex): void;
  /** Every (re)load of departments and ranks, whatever asked for it (a join, the periodic reload). */
  catalogLoaded?(catalog: CatalogIndex): void;
  /** An online player's roster data is announced: called before the event and the state bag. */
  playerLoaded?(src: string, member: Member | null): void;
  /** An online player's roster data changed: called before the event and the state bag. */
  playerUpdated?(src: string, member: Member | null, previous: Member | null): void;
  /** A further check a joining player must pass once the roster admits them. */
  joinCheck?: JoinCheck;
  /** The documented exports this capability answers; the resource registers every one once. */
  exports?: ExportAnswers;
  /** The gate is about to admit a connecting player (before `done()`). */
  admitted?(tempId: string): void;
  /** The gate decided on a connecting player; called synchronously, so it must be cheap. */
  decided?(decision: JoinDecision): void;
  /** A roster request's status, or null when nothing came back. */
  answered?(status: number | null): void;
  /** A player left. */
  dropped?(entry: PlayerEntry): void;
  /** Every minute, after connecting players that never joined were forgotten. */
  sweep?(): void;
  /** Entries of the audit log could not be read (`reason`): changes in that gap were missed. */
  auditGap?(reason: string): void;
  /** A read of the audit log brought these entries, not handled before (before they are matched). */
  auditEntries?(fresh: readonly unknown[]): void;
  /**
   * The audit feed started (in a `ready` or `scopesChanged` hook, so before those of the features
   * listed after): the audit feature's handle gives it from now on.
   */
  auditFeedStarted?(): void;
  /** Lines added to `roster status`, after the roster's own. */
  statusLines?(): string[];
  /** Lines added to `roster doctor`, after the roster's own checks. */
  doctorLines?(): string[] | Promise<string[]>;
}

/** A capability module's entry point: registers what it needs and hands back its hooks. */
export type AttachCapability = (context: RosterContext) => Capability;

/** The attached capabilities, in list order; each method calls one hook on all of them. */
export class Capabilities {
  private readonly attached: Capability[] = [];

  add(capability: Capability): void {
    this.attached.push(capability);
  }

  start(): void {
    for (const capability of this.attached) capability.start?.();
    for (const capability of this.attached) capability.rosterStarted?.();
  }

  stop(): void {
    for (const capability of this.attached) capability.stop?.();
  }

  ready(identity: KeyIdentity): void {
    for (const capability of this.attached) capability.ready?.(identity);
  }

  scopesChanged(identity: KeyIdentity): void {
    for (const capability of this.attached) capability.scopesChanged?.(identity);
  }

  departmentsRead(catalog: CatalogIndex): void {
    for (const capability of this.attached) capability.departmentsRead?.(catalog);
  }

  catalogLoaded(catalog: CatalogIndex): void {
    for (const capability of this.attached) capability.catalogLoaded?.(catalog);
  }

  playerLoaded(src: string, member: Member | null): void {
    for (const capability of this.attached) capability.playerLoaded?.(src, member);
  }

  playerUpdated(src: string, member: Member | null, previous: Member | null): void {
    for (const capability of this.attached) capability.playerUpdated?.(src, member, previous);
  }

  joinChecks(): JoinCheck[] {
    return this.attached.flatMap((capability) => (capability.joinCheck ? [capability.joinCheck] : []));
  }

  /** Every capability's export answers; an export two answer is the first one's. */
  exportAnswers(): ExportAnswers {
    const answers: ExportAnswers = {};
    for (const capability of [...this.attached].reverse()) Object.assign(answers, capability.exports);
    return answers;
  }

  admitted(tempId: string): void {
    for (const capability of this.attached) capability.admitted?.(tempId);
  }

  decided(decision: JoinDecision): void {
    for (const capability of this.attached) capability.decided?.(decision);
  }

  answered(status: number | null): void {
    for (const capability of this.attached) capability.answered?.(status);
  }

  dropped(entry: PlayerEntry): void {
    for (const capability of this.attached) capability.dropped?.(entry);
  }

  sweep(): void {
    for (const capability of this.attached) capability.sweep?.();
  }

  auditGap(reason: string): void {
    for (const capability of this.attached) capability.auditGap?.(reason);
  }

  auditEntries(fresh: readonly unknown[]): void {
    for (const capability of this.attached) capability.auditEntries?.(fresh);
  }

  auditFeedStarted(): void {
    for (const capability of this.attached) capability.auditFeedStarted?.();
  }

  statusLines(): string[] {
    return this.attached.flatMap((capability) => capability.statusLines?.() ?? []);
  }

  /** One capability after the other, so each one's own deadline starts when its turn comes. */
  async doctorLines(): Promise<string[]> {
    const lines: string[] = [];
    for (const capability of this.attached)
      if (capability.doctorLines) lines.push(...(await capability.doctorLines()));
    return lines;
  }
}
