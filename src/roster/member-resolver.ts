import type { RosterCatalog } from './catalog';
import type { CatalogIndex } from './catalog-index';
import type { MemberCache } from './member-cache';
import type { MemberMirror } from './member-mirror';
import { type MemberView, toMemberView, viewOf } from './member-view';
import type { ApiMember, MemberLookup } from './model';
import type { RosterErrors } from './roster-errors';
import type { Lane, RosterSource } from './roster-source';

/**
 * What the roster said about a license, or that it could not say. A `partial` answer knows the
 * member's status only: enough to refuse a join, never used as the member's record; an `unnamed`
 * one knows the departments by id only, because the department list could not be loaded.
 */
export type Resolution =
  | { kind: 'answer'; view: MemberView | null; partial?: true; unnamed?: true }
  | { kind: 'outage'; error: unknown; lastKnown: MemberView | undefined };

/** A resolution that is the roster's answer. */
export type Answer = Extract<Resolution, { kind: 'answer' }>;

/**
 * Hears what the service said about a license: the member's full record, null for "not on the
 * roster", or 'partial' when only part of it changed (a status alone, a rank set from the game).
 */
export type AnswerListener = (license: string, answer: MemberLookup | null | 'partial') => void;

export interface MemberResolverDeps {
  source: Pick<RosterSource, 'lookup' | 'member' | 'assignmentsOf' | 'lookupMany'>;
  cache: MemberCache;
  catalog: RosterCatalog;
  errors: RosterErrors;
  /**
   * Whether deciding a join needs the member's departments (default: always). A status the gate
   * refuses anyway does not: that member's join is decided on the members request alone.
   */
  joinNeedsDepartments?: (member: ApiMember) => boolean;
}

/**
 * A license's member record: from the mirror when it answers, the cache next, the service last;
 * the last known record (of the cache's and the mirror's, the newer) when the service cannot answer.
 * Every answer the service gives is kept in the cache and heard by the listeners (the mirror).
 */
export class MemberResolver {
  /** Views that know a status only (a join refused on it): cached for the gate, never a record. */
  private readonly statusOnly = new WeakSet<MemberView>();
  private mirror: MemberMirror | null = null;
  private readonly answerListeners = new Set<AnswerListener>();

  constructor(private readonly deps: MemberResolverDeps) {}

  /** Answers the licenses `mirror` holds in `resolve`, before the cache (null: none). */
  useMirror(mirror: MemberMirror | null): void {
    this.mirror = mirror;
  }

  /** True while the mirror answers joins: it holds the whole roster and is known current. */
  get mirrorAnswering(): boolean {
    return this.mirror?.answering ?? false;
  }

  /** The mirror's answer for `license`, when it gives one. */
  mirrored(license: string): MemberView | undefined {
    return this.mirror?.held(license, this.namesOrNull())?.answer;
  }

  /** Tells `listener` of every answer the service gives from now on; returns an unsubscribe. */
  onAnswer(listener: AnswerListener): () => void {
    this.answerListeners.add(listener);
    return () => this.answerListeners.delete(listener);
  }

  /**
   * The license of the member record held (cache, or the mirror) whose member id or assignment id
   * is `id`: how an audit entry naming a member who is not online finds them.
   */
  licenseNamedBy(id: string): string | undefined {
    return this.deps.cache.licenseNamedBy(id) ?? this.mirror?.licenseNamedBy(id);
  }

  /**
   * The mirror first (asked once; once departments and ranks are known), the cache next; then the
   * service. Never throws: an outage comes back with the last known record.
   * An answer is the member's full record (status, departments, ranks). With `decideOnly` (the
   * gate), a member whose status is refused anyway is answered from the members request alone.
   */
  async resolve(license: string, lane: Lane, options: { decideOnly?: boolean } = {}): Promise<Resolution> {
    // A mirror that answers before departments and ranks are known (restored, or another server's
    // copy) answers once they are: the first load under way is waited for, not a lookup sent.
    if (this.mirror?.answering && !this.deps.catalog.ready) await this.deps.catalog.load();
    const held = this.mirror?.held(license, this.namesOrNull());
    if (held?.answer) return { kind: 'answer', view: held.answer };
    const fresh = this.freshUnlessOutdated(license, held?.readAt);
    if (fresh === null) return { kind: 'answer', view: null };
    if (fresh !== undefined) {
      if (!this.statusOnly.has(fresh)) return { kind: 'answer', view: fresh };
      if (options.decideOnly) return { kind: 'answer', view: fresh, partial: true };
    }
    return this.fetch(license, lane, options.decideOnly === true);
  }

  /**
   * The cache's fresh answer, unless the mirror read the license since (`heldAt`: a full read that
   * found a change the cache's older answer predates): then none, and the service is asked.
   */
  private freshUnlessOutdated(license: string, heldAt: number | undefined): MemberView | null | undefined {
    const fresh = this.deps.cache.fresh(license);
    if (fresh === undefined || heldAt === undefined) return fresh;
    const cached = this.deps.cache.readAt(license);
    return cached !== undefined && heldAt > cached ? undefined : fresh;
  }

  /** Asks the service, bypassing the mirror and the cache. */
  async fetch(license: string, lane: Lane, decideOnly = false): Promise<Resolution> {
    const { catalog } = this.deps;
    try {
      // Department names come from the catalog; load it alongside the first lookups, not before them.
      const [record] = await Promise.all([
        lane === 'join' ? this.joinRecord(license, decideOnly) : this.deps.source.lookup(license, lane),
        catalog.ready ? undefined : catalog.load(),
      ]);
      if (record === null) return this.answer(license, null, null);
      if (record.assignments === null) return this.statusAnswer(license, record.member);
      const lookup = { member: record.member, assignments: record.assignments };
      return this.answer(license, toMemberView(lookup, catalog.index), lookup);
    } catch (error) {
      this.deps.errors.note(error, 'roster lookup failed');
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

  /** Many licenses at once, batched; each answer goes through `answered`. */
  readMany(licenses: readonly string[], lane: Lane): Promise<Map<string, MemberLookup | null>> {
    return this.deps.source.lookupMany(licenses, lane);
  }

  /** An answer from `readMany`: shaped, kept and heard as any other. */
  answered(license: string, lookup: MemberLookup | null): Answer {
    return this.answer(license, lookup ? toMemberView(lookup, this.deps.catalog.index) : null, lookup);
  }

  /**
   * Caches an answer (`record`: what `view` was shaped from) and tells the listeners; one shaped
   * without the department list is used, never kept.
   */
  private answer(license: string, view: MemberView | null, record: MemberLookup | null): Answer {
    this.tell(license, record);
    if (view !== null && !this.deps.catalog.ready && view.member.departments.length > 0) {
      return { kind: 'answer', view, unnamed: true };
    }
    this.deps.cache.set(license, view);
    return { kind: 'answer', view };
  }

  /**
   * A status the gate refuses: cached (a reconnect costs nothing) but marked, so only the gate
   * uses it. The departments last known are kept with the new status, for an outage later.
   */
  private statusAnswer(license: string, member: ApiMember): Answer {
    // The departments are the same member's only: another membership of the license (an older one
    // after the newest was deleted) is a member of its own, found by its own id.
    const known = this.deps.cache.lastKnown(license);
    const previous = known?.member.id === member.id ? known : undefined;
    const view = previous
      ? viewOf({ ...previous.member, status: member.status, name: member.name }, previous.assignments)
      : toMemberView({ member, assignments: [] }, this.deps.catalog.index);
    this.statusOnly.add(view);
    this.deps.cache.set(license, view);
    this.tell(license, 'partial');
    return { kind: 'answer', view, partial: true };
  }

  /** A record shaped again with new department and rank names. */
  reshaped(license: string, view: MemberView): void {
    this.deps.cache.set(license, view);
  }

  /** A record with a rank the service confirmed: kept, and heard as a partial answer. */
  rankConfirmed(license: string, view: MemberView): void {
    this.deps.cache.set(license, view);
    this.tell(license, 'partial');
  }

  /**
   * The last member record the service gave for a license, however old: of the cache's and the
   * mirror's, the one read most recently (a full read may know of a suspension the cache's older
   * answer does not).
   */
  lastKnown(license: string): MemberView | undefined {
    const cached = this.deps.cache.lastKnownRecord(license);
    const held = this.mirror?.lastKnown(license, this.namesOrNull());
    if (cached === undefined) return held?.view;
    if (held === undefined) {
      // A full read of the whole roster since the cache's answer did not find the license: the
      // newest word on it is that it is not on the roster.
      const whole = this.mirror?.wholeAt ?? null;
      return whole !== null && whole > cached.readAt ? undefined : cached.view;
    }
    return held.readAt > cached.readAt ? held.view : cached.view;
  }

  /** What the cache and the mirror hold for `license` may be out of date: last known only. */
  doubt(license: string): void {
    this.deps.cache.markStale(license);
    this.mirror?.doubt(license);
  }

  private namesOrNull(): CatalogIndex | null {
    return this.deps.catalog.ready ? this.deps.catalog.index : null;
  }

  private tell(license: string, answer: MemberLookup | null | 'partial'): void {
    for (const listener of this.answerListeners) listener(license, answer);
  }
}
