import { isKeyRefused } from '../http/key-suspension';
import type { Clock, Logger } from '../platform/ports';
import { CatalogIndex } from './catalog-index';
import type { MemberCache } from './member-cache';
import { type MemberView, memberChanged, toMemberView, viewOf } from './member-view';
import type { ApiMember, ApiRank, Member, MemberLookup } from './model';
import type { PlayerEntry, PlayerRegistry } from './player-registry';
import type { Lane, RosterSource } from './roster-source';

/**
 * What the roster said about a license, or that it could not say. A `partial` answer knows the
 * member's status only: enough to refuse a join, never used as the member's record; an `unnamed`
 * one knows the departments by id only, because the department list could not be loaded.
 */
export type Resolution =
  | { kind: 'answer'; view: MemberView | null; partial?: true; unnamed?: true }
  | { kind: 'outage'; error: unknown; lastKnown: MemberView | undefined };

/** A last known record and when this server read it (its clock). */
export interface KnownRecord {
  view: MemberView;
  readAt: number;
}

/**
 * The whole roster kept on the server: a license it holds is answered
 * without a request. It never says "not on the roster": a license it does not hold is looked up.
 */
export interface MemberMirror {
  /** The member holding `license`, shaped with `catalog`; undefined when the mirror cannot say. */
  find(license: string, catalog: CatalogIndex): MemberView | undefined;
  /** True while `find` answers: the whole roster is held and known current. */
  readonly answering: boolean;
  /** The license of the member held whose member id or assignment id is `id`. */
  licenseNamedBy(id: string): string | undefined;
  /**
   * The member it holds for `license` however current (e.g. loaded from a snapshot and not caught
   * up yet): a last known record for the outage policy only. `catalog`: null when not loaded yet.
   */
  lastKnown(license: string, catalog: CatalogIndex | null): KnownRecord | undefined;
  /** When the record held for `license` was read (this server's time); undefined when none is held. */
  readAt(license: string): number | undefined;
  /**
   * When the last full read of the whole roster that completed began (this server's time): a
   * license it does not hold was not on the roster then. null: none this run.
   */
  readonly wholeAt: number | null;
  /** The record held for `license` may be out of date: not answered until the service answers for it. */
  doubt(license: string): void;
}

/**
 * Hears what the service said about a license: the member's full record, null for "not on the
 * roster", or 'partial' when only part of it changed (a status alone, a rank set from the game).
 */
export type AnswerListener = (license: string, answer: MemberLookup | null | 'partial') => void;

/** Where changes go: the FiveM side turns these into events and state bags. */
export interface RosterEvents {
  playerLoaded(src: string, member: Member | null): void;
  playerUpdated(src: string, member: Member | null, previous: Member | null): void;
}

export interface RosterServiceDeps {
  source: RosterSource;
  cache: MemberCache;
  players: PlayerRegistry;
  events: RosterEvents;
  clock: Clock;
  logger: Logger;
  /** Told each time departments and ranks are (re)loaded, e.g. to rebuild the rank principals. */
  catalogLoaded?(catalog: CatalogIndex): void;
  /**
   * Whether deciding a join needs the member's departments (default: always). A status the gate
   * refuses anyway does not: that member's join is decided on the members request alone.
   */
  joinNeedsDepartments?: (member: ApiMember) => boolean;
}

/** How long a failed first load of departments and ranks waits before it is tried again. */
const CATALOG_RETRY_MS = 60_000;

/** The core of the resource: resolves licenses through the cache and the API, and keeps players in step. */
export class RosterService {
  private catalogIndex = new CatalogIndex();
  private catalogLoaded = false;
  private catalogFailedAt = -Infinity;
  /** Views that know a status only (a join refused on it): cached for the gate, never a record. */
  private readonly statusOnly = new WeakSet<MemberView>();
  private mirror: MemberMirror | null = null;
  private readonly answerListeners = new Set<AnswerListener>();
  lastError: { message: string; at: number } | null = null;

  constructor(private readonly deps: RosterServiceDeps) {}

  get catalog(): CatalogIndex {
    return this.catalogIndex;
  }

  /** True once departments and ranks were loaded: department names and rank ladders are known. */
  get catalogReady(): boolean {
    return this.catalogLoaded;
  }

  /**
   * Loads departments and ranks (`force`: reload even if recent). Until a first load succeeds it
   * is tried at most once a minute, so an outage or a missing scope does not cost every lookup.
   */
  async loadCatalog(force = false): Promise<boolean> {
    const now = this.deps.clock.now();
    if (!force && !this.catalogLoaded && now - this.catalogFailedAt < CATALOG_RETRY_MS) return false;
    try {
      this.catalogIndex = new CatalogIndex(await this.deps.source.catalog(force ? { force } : undefined));
      const first = !this.catalogLoaded;
      this.catalogLoaded = true;
      this.deps.catalogLoaded?.(this.catalogIndex);
      // Members shaped before the list arrived know their departments by id only: shape them again.
      if (first && this.deps.players.onlineCount > 0) void this.refreshOnline('refresh');
      return true;
    } catch (error) {
      if (!this.catalogLoaded) this.catalogFailedAt = this.deps.clock.now();
      this.noteError(error, 'could not load departments and ranks');
      return false;
    }
  }

  /** Answers the licenses `mirror` holds in `resolve`, before the cache (null: none). */
  useMirror(mirror: MemberMirror | null): void {
    this.mirror = mirror;
  }

  /**
   * The license of the member record held (cache, or the mirror) whose member id or assignment id
   * is `id`: how an audit entry naming a member who is not online finds them.
   */
  licenseNamedBy(id: string): string | undefined {
    return this.deps.cache.licenseNamedBy(id) ?? this.mirror?.licenseNamedBy(id);
  }

  /** True while the mirror answers joins: it holds the whole roster and is known current. */
  get mirrorAnswering(): boolean {
    return this.mirror?.answering ?? false;
  }

  /**
   * The mirror has read the whole roster again: online players take the record it holds for them
   * (no request), and those whose record changed hear `playerUpdated`. The few it does not hold
   * (gone from the roster, or a license it cannot say for) are read again. That makes the mirror's
   * full read the safety net for online players too. Returns how many changed.
   */
  async followMirror(lane: Lane = 'refresh'): Promise<number> {
    if (!this.mirror?.answering || !this.catalogLoaded) return 0;
    let changed = 0;
    const unheld: string[] = [];
    for (const [src, entry] of this.deps.players.onlinePlayers()) {
      if (entry.license === null) continue;
      const view = this.mirror.find(entry.license, this.catalogIndex);
      if (view === undefined) unheld.push(src);
      else if (this.apply(src, view)) changed++;
    }
    if (unheld.length > 0) changed += (await this.refreshPlayers(unheld, lane)) ?? 0;
    return changed;
  }

  /** Tells `listener` of every answer the service gives from now on; returns an unsubscribe. */
  onAnswer(listener: AnswerListener): () => void {
    this.answerListeners.add(listener);
    return () => this.answerListeners.delete(listener);
  }

  /**
   * The mirror first (once departments and ranks are known), the cache next; then the service.
   * Never throws: an outage comes back with the last known record.
   * An answer is the member's full record (status, departments, ranks). With `decideOnly` (the
   * gate), a member whose status is refused anyway is answered from the members request alone.
   */
  async resolve(license: string, lane: Lane, options: { decideOnly?: boolean } = {}): Promise<Resolution> {
    const held = this.catalogLoaded ? this.mirror?.find(license, this.catalogIndex) : undefined;
    if (held) return { kind: 'answer', view: held };
    const fresh = this.cachedUnlessOutdated(license);
    if (fresh === null) return { kind: 'answer', view: null };
    if (fresh !== undefined) {
      if (!this.statusOnly.has(fresh)) return { kind: 'answer', view: fresh };
      if (options.decideOnly) return { kind: 'answer', view: fresh, partial: true };
    }
    return this.fetch(license, lane, options.decideOnly === true);
  }

  /**
   * The cache's fresh answer, unless the mirror read the license since (a full read that found a
   * change the cache's older answer predates): then none, and the service is asked.
   */
  private cachedUnlessOutdated(license: string): MemberView | null | undefined {
    const fresh = this.deps.cache.fresh(license);
    if (fresh === undefined || this.mirror === null) return fresh;
    const held = this.mirror.readAt(license);
    const cached = this.deps.cache.readAt(license);
    return held !== undefined && cached !== undefined && held > cached ? undefined : fresh;
  }

  /** Asks the service, bypassing the cache. */
  async fetch(license: string, lane: Lane, decideOnly = false): Promise<Resolution> {
    try {
      // Department names come from the catalog; load it alongside the first lookups, not before them.
      const [record] = await Promise.all([
        lane === 'join' ? this.joinRecord(license, decideOnly) : this.deps.source.lookup(license, lane),
        this.catalogLoaded ? undefined : this.loadCatalog(),
      ]);
      if (record === null) return this.answer(license, null, null);
      if (record.assignments === null) return this.statusAnswer(license, record.member);
      const lookup = { member: record.member, assignments: record.assignments };
      const view = toMemberView(lookup, this.catalogIndex);
      return this.answer(license, view, lookup);
    } catch (error) {
      this.noteError(error, 'roster lookup failed');
      return { kind: 'outage', error, lastKnown: this.lastKnown(license) };
    }
  }

  /**
   * A joining member's record: the members request, then at once (in the join lane) their
   * assignments. `assignments: null` when a refused status makes them unnecessary.
   */
  private async joinRecord(
    license: string,
    decideOnly: boolean,
  ): Promise<{ member: ApiMember; assignments: MemberLookup['assignments'] | null } | null> {
    const found = await this.deps.source.member(license, 'join');
    if (found === null) return null;
    if (found.assignments !== null) return found;
    if (decideOnly && !(this.deps.joinNeedsDepartments?.(found.member) ?? true)) {
      return { member: found.member, assignments: null };
    }
    const assignments = await (found.assignmentsAsked ??
      this.deps.source.assignmentsOf(found.member.id, 'join'));
    return { member: found.member, assignments };
  }

  /**
   * Caches an answer (`record`: what `view` was shaped from) and tells the listeners; one shaped
   * without the department list is used, never kept.
   */
  private answer(license: string, view: MemberView | null, record: MemberLookup | null): Resolution {
    this.tell(license, record);
    if (view !== null && !this.catalogLoaded && view.member.departments.length > 0) {
      return { kind: 'answer', view, unnamed: true };
    }
    this.deps.cache.set(license, view);
    return { kind: 'answer', view };
  }

  /**
   * A status the gate refuses: cached (a reconnect costs nothing) but marked, so only the gate
   * uses it. The departments last known are kept with the new status, for an outage later.
   */
  private statusAnswer(license: string, member: ApiMember): Resolution {
    const previous = this.deps.cache.lastKnown(license);
    const view = previous
      ? viewOf({ ...previous.member, status: member.status, name: member.name }, previous.assignments)
      : toMemberView({ member, assignments: [] }, this.catalogIndex);
    this.statusOnly.add(view);
    this.deps.cache.set(license, view);
    this.tell(license, 'partial');
    return { kind: 'answer', view, partial: true };
  }

  /**
   * The last member record the service gave for a license, however old: of the cache's and the
   * mirror's, the one read most recently (a full read may know of a suspension the cache's older
   * answer does not).
   */
  lastKnown(license: string): MemberView | undefined {
    const cached = this.deps.cache.lastKnownRecord(license);
    const held = this.mirror?.lastKnown(license, this.catalogLoaded ? this.catalogIndex : null);
    if (cached === undefined) return held?.view;
    if (held === undefined) {
      // A full read of the whole roster since the cache's answer did not find the license: the
      // newest word on it is that it is not on the roster.
      const whole = this.mirror?.wholeAt ?? null;
      return whole !== null && whole > cached.readAt ? undefined : cached.view;
    }
    return held.readAt > cached.readAt ? held.view : cached.view;
  }

  /** The member record of a player, for exports: from memory only. */
  view(src: string): MemberView | undefined {
    return this.deps.players.get(src)?.view ?? undefined;
  }

  /** Gives a joined player their roster data and announces it once. */
  async loadPlayer(src: string, entry: PlayerEntry): Promise<void> {
    if (entry.view === undefined && entry.license !== null) {
      // Exports answer from the last known record (e.g. the snapshot after a restart) while the
      // service is asked.
      entry.view = this.lastKnown(entry.license);
      const resolution = await this.resolve(entry.license, 'join');
      entry.view = resolution.kind === 'answer' ? resolution.view : (resolution.lastKnown ?? entry.view);
    }
    if (!this.deps.players.isOnline(src)) return;
    entry.announced = true;
    this.deps.events.playerLoaded(src, entry.view?.member ?? null);
  }

  /** Re-checks every online player in one batched pass; fires updates for changes. */
  async refreshOnline(lane: Lane = 'refresh'): Promise<number> {
    return (await this.refreshLicenses(this.licensesOf(this.deps.players.onlinePlayers()), lane)) ?? 0;
  }

  /**
   * Re-reads just these online players (e.g. those an audit entry concerns), batched. Returns how
   * many changed, or null when the service could not answer.
   */
  async refreshPlayers(srcs: Iterable<string>, lane: Lane = 'refresh'): Promise<number | null> {
    const entries: [string, PlayerEntry][] = [];
    for (const src of srcs) {
      const entry = this.deps.players.get(src);
      if (entry && this.deps.players.isOnline(src)) entries.push([src, entry]);
    }
    return this.refreshLicenses(this.licensesOf(entries), lane);
  }

  /**
   * Re-reads these licenses, online or not (members an audit entry names), batched: the cache keeps
   * each answer, so the next join decides on it, and online holders hear `playerUpdated`. Returns
   * the licenses left without a kept answer (all of them when the service could not answer).
   */
  async refreshMembers(licenses: Iterable<string>, lane: Lane = 'refresh'): Promise<string[]> {
    const asked = [...new Set(licenses)];
    if (asked.length === 0) return [];
    let lookups: Map<string, MemberLookup | null>;
    try {
      lookups = await this.deps.source.lookupMany(asked, lane);
    } catch (error) {
      this.noteError(error, 'member re-read failed');
      for (const license of asked) this.doubt(license);
      return asked;
    }
    const holders = this.licensesOf(this.deps.players.onlinePlayers());
    const missed: string[] = [];
    for (const license of asked) {
      const lookup = lookups.get(license);
      if (lookup === undefined) {
        missed.push(license);
        continue;
      }
      const answer = this.answer(license, lookup ? toMemberView(lookup, this.catalogIndex) : null, lookup);
      if (answer.kind !== 'answer') continue;
      // Shaped without department names, it was not cached: the next join would not see it.
      if (answer.unnamed) missed.push(license);
      for (const src of holders.get(license) ?? []) this.apply(src, answer.view);
    }
    // Named by a change that could not be read: what is held for them is a last known record only.
    for (const license of missed) this.doubt(license);
    return missed;
  }

  private doubt(license: string): void {
    this.deps.cache.markStale(license);
    this.mirror?.doubt(license);
  }

  private licensesOf(entries: Iterable<[string, PlayerEntry]>): Map<string, string[]> {
    const byLicense = new Map<string, string[]>();
    for (const [src, entry] of entries) {
      if (entry.license === null) continue;
      byLicense.set(entry.license, [...(byLicense.get(entry.license) ?? []), src]);
    }
    return byLicense;
  }

  private async refreshLicenses(byLicense: Map<string, string[]>, lane: Lane): Promise<number | null> {
    if (byLicense.size === 0) return 0;
    let results: Map<string, MemberView | null>;
    try {
      const lookups = await this.deps.source.lookupMany([...byLicense.keys()], lane);
      results = new Map();
      for (const [license, lookup] of lookups) {
        const answer = this.answer(license, lookup ? toMemberView(lookup, this.catalogIndex) : null, lookup);
        if (answer.kind === 'answer') results.set(license, answer.view);
      }
    } catch (error) {
      this.noteError(error, 'background refresh failed');
      return null;
    }
    let changed = 0;
    for (const [license, srcs] of byLicense) {
      if (!results.has(license)) continue;
      for (const src of srcs) if (this.apply(src, results.get(license) ?? null)) changed++;
    }
    return changed;
  }

  /**
   * Re-shapes online players from the catalog just loaded (a renamed department or rank), without
   * a request; `playerUpdated` fires for those whose names changed.
   */
  reshapeOnline(): number {
    let changed = 0;
    for (const [src, entry] of this.deps.players.onlinePlayers()) {
      const view = entry.view;
      if (!view) continue;
      const departments = view.member.departments.map((d) => {
        const known = this.catalogIndex.departments.get(d.id);
        const rank = d.rank ? this.catalogIndex.rank(d.rank.id) : undefined;
        return {
          ...d,
          name: known?.name ?? d.name,
          shortName: known ? known.shortName : d.shortName,
          rank: d.rank && rank ? { id: rank.id, name: rank.name, position: rank.position } : d.rank,
        };
      });
      const next = viewOf({ ...view.member, departments }, view.assignments);
      if (!memberChanged(view.member, next.member)) continue;
      if (entry.license !== null) this.deps.cache.set(entry.license, next);
      if (this.apply(src, next)) changed++;
    }
    return changed;
  }

  /**
   * Records a rank the service confirmed for a player's department: exports show it at once, the
   * cache keeps it, and `playerUpdated` fires as for a refresh. Null when the player is gone.
   */
  recordRank(src: string, departmentId: string, rank: ApiRank): Member | null {
    const entry = this.deps.players.get(src);
    const view = entry?.view;
    if (!entry || !view) return null;
    const held = { id: rank.id, name: rank.name, position: rank.position };
    const member: Member = {
      ...view.member,
      departments: view.member.departments.map((d) => (d.id === departmentId ? { ...d, rank: held } : d)),
    };
    const next = viewOf(member, view.assignments);
    if (entry.license === null) {
      this.apply(src, next);
      return member;
    }
    this.deps.cache.set(entry.license, next);
    this.tell(entry.license, 'partial');
    // Every online player holding this license sees the change (one account, two clients).
    const holders = this.licensesOf(this.deps.players.onlinePlayers()).get(entry.license) ?? [src];
    for (const other of holders) this.apply(other, next);
    return member;
  }

  /** Fetches one player fresh; change events fire as for a background refresh. */
  async refreshPlayer(src: string): Promise<Member | null> {
    const entry = this.deps.players.get(src);
    if (!entry || entry.license === null) return null;
    const resolution = await this.fetch(entry.license, 'refresh');
    if (resolution.kind === 'outage') return entry.view?.member ?? null;
    this.apply(src, resolution.view);
    return resolution.view?.member ?? null;
  }

  /** Records a new view for a player; returns whether other resources were told of a change. */
  private apply(src: string, view: MemberView | null): boolean {
    const entry = this.deps.players.get(src);
    if (!entry) return false;
    const previous = entry.view;
    entry.view = view;
    // Before playerLoaded went out there is nothing to update: loadPlayer announces this view.
    if (!entry.announced || !this.deps.players.isOnline(src)) return false;
    const before = previous?.member ?? null;
    const after = view?.member ?? null;
    if (!memberChanged(before, after)) return false;
    this.deps.events.playerUpdated(src, after, before);
    return true;
  }

  private tell(license: string, answer: MemberLookup | null | 'partial'): void {
    for (const listener of this.answerListeners) listener(license, answer);
  }

  private noteError(error: unknown, context: string): void {
    const message = error instanceof Error ? error.message : String(error);
    this.lastError = { message: `${context}: ${message}`, at: this.deps.clock.now() };
    // A refused key is said once by the client itself, not again by every read it stops.
    if (!isKeyRefused(error)) this.deps.logger.warn(`${context}: ${message}`);
  }
}
