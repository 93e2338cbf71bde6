import type { Clock } from '../../platform/ports';
import { CatalogIndex } from '../../roster/catalog-index';
import type { LicenseClaims } from '../../roster/claimed-licenses';
import type { HeldRecord, KnownRecord, MemberMirror } from '../../roster/member-mirror';
import { toMemberView } from '../../roster/member-view';
import type { ApiAssignment, ApiRank, MemberLookup } from '../../roster/model';
import { isNewerMembership } from '../../roster/newest-membership';
import {
  licenseKey,
  lookupOf,
  type MirroredAssignment,
  type MirroredMember,
  membershipOf,
  mirroredAssignment,
  mirroredMember,
  sharedLicenses,
} from './mirrored-member';

/** Distinct expanded ranks shared at most: a community has dozens; past this each keeps its own. */
const MAX_SHARED_RANKS = 10_000;

/**
 * Ids the audit log named while a full read ran, kept at most: past it the read cannot tell which
 * of its records a change reached, and does not count as in step with the log.
 */
export const MAX_NAMED_DURING_READ = 50_000;

/** What a full read left to do before its records are answered. */
export interface ReadReplaced {
  /**
   * Licenses of members the audit log named while the read ran: their records may predate the
   * change, so they are not answered until read again.
   */
  named: string[];
  /** More ids were named than could be kept: nothing the read holds is known to be in step. */
  overflowed: boolean;
}

/**
 * The members of the whole roster by license. It answers only once a full read completed (or a
 * restored snapshot caught up), and only for licenses it holds: a license it lacks is never "not on
 * the roster", just unknown. Until then what it holds serves as last known records only.
 * Every answer the service gives replaces what it holds for that license; answers that come while
 * a full read runs are kept aside and applied on top of it, so the read never brings back a
 * record older than one already answered. So are the ids the audit log names while it runs: the
 * members they belong to in the read are not answered until read again, so a change made while
 * the read ran is never lost to it. A license several members claim is held for the most recent
 * membership.
 */
export class RosterMirror implements MemberMirror {
  private byLicense = new Map<string, MirroredMember>();
  /** Member id → license key: a member whose license changed leaves no stale entry behind. */
  private licenseById = new Map<string, string>();
  /** Assignment id → license key, so an audit entry naming only an assignment finds its member. */
  private licenseByAssignment = new Map<string, string>();
  private readonly ranks = new Map<string, ApiRank>();
  /** Answers heard while a full read runs (null: the license is no longer held). */
  private heardDuringRead: Map<string, MirroredMember | null> | null = null;
  /** The full read under way's window on the audit log. */
  private fullRead: NamedWindow | null = null;
  /** Reads under way, each keeping the ids the audit log names while it runs. */
  private readonly windows = new Set<NamedWindow>();
  private ready = false;
  /** When the last full read that replaced everything held began; null: none this run. */
  private wholeSince: number | null = null;
  /**
   * Licenses whose record may be out of date (a change named them and their re-read failed): not
   * answered, only last known, until the service answers for them. At most `maxEntries`.
   */
  private doubted = new Set<string>();
  /** Departments and ranks saved with a restored snapshot: names for last known records offline. */
  private savedCatalog: CatalogIndex | null = null;

  /**
   * `tooLarge` is told when more than `maxEntries` members would be held; `claims` of each license
   * several members claim, whenever a read finds one.
   */
  constructor(
    private readonly maxEntries: number,
    private readonly tooLarge: (size: number) => void,
    private readonly clock: Pick<Clock, 'now'> = { now: () => 0 },
    private readonly claims: LicenseClaims = { note: () => undefined },
  ) {}

  get wholeAt(): number | null {
    return this.wholeSince;
  }

  /** True once a full read completed: from then on the licenses held are answered. */
  get complete(): boolean {
    return this.ready;
  }

  get size(): number {
    return this.byLicense.size;
  }

  /** Whether any of `ids` is the member id or an assignment id of a member held. */
  namesAnyHeld(ids: Iterable<string>): boolean {
    for (const id of ids) if (this.licenseNamedBy(id) !== undefined) return true;
    return false;
  }

  /** The license of the member held whose member id or assignment id is `id`. */
  licenseNamedBy(id: string): string | undefined {
    return this.licenseById.get(id) ?? this.licenseByAssignment.get(id);
  }

  /**
   * Whether what is held is known to be current right now (the audit feed keeps reaching the end
   * of the log). While it is not, joins are looked up; what is held stays a last known record.
   */
  inStep: () => boolean = () => true;

  get answering(): boolean {
    return this.ready && this.inStep();
  }

  held(license: string, catalog: CatalogIndex | null): HeldRecord | undefined {
    const key = licenseKey(license);
    const answers = catalog !== null && this.answering && !this.doubted.has(key);
    const member = this.byLicense.get(key);
    if (!member) return undefined;
    return {
      answer: answers ? toMemberView(lookupOf(member, catalog), catalog) : undefined,
      readAt: member.readAt,
    };
  }

  /** What it holds for `license` however current, with when it was read: for the outage policy only. */
  lastKnown(license: string, catalog: CatalogIndex | null): KnownRecord | undefined {
    const member = this.byLicense.get(licenseKey(license));
    if (!member) return undefined;
    const names = catalog ?? this.savedCatalog ?? new CatalogIndex();
    return { view: toMemberView(lookupOf(member, names), names), readAt: member.readAt };
  }

  /** Every member held (for the snapshot). */
  members(): IterableIterator<MirroredMember> {
    return this.byLicense.values();
  }

  /**
   * Members loaded from a snapshot, with the departments and ranks saved beside them: held, found
   * by id for the audit feed and as last known records, but not answered until `trust`.
   */
  restore(members: Iterable<MirroredMember>, catalog: CatalogIndex): void {
    this.clear();
    this.savedCatalog = catalog;
    this.putAll([...members], null);
    this.checkSize();
  }

  /** What it holds is the roster as it stands (a restored snapshot caught up): joins are answered. */
  trust(): void {
    this.ready = true;
  }

  /**
   * What the service answered for a license: a member replaces the entry, "not on the roster"
   * removes it, and a partial answer too (the mirror holds whole records only).
   */
  heard(license: string, answer: MemberLookup | null | 'partial'): void {
    this.doubted.delete(licenseKey(license));
    if (answer !== null && answer !== 'partial') {
      const member = this.compact(answer);
      member.readAt = this.clock.now();
      this.put(member);
      this.heardDuringRead?.set(licenseKey(member.license), member);
      this.checkSize();
      return;
    }
    const key = licenseKey(license);
    this.remove(key);
    this.heardDuringRead?.set(key, null);
  }

  doubt(license: string): void {
    if (this.doubted.size < this.maxEntries) this.doubted.add(licenseKey(license));
  }

  /** Shapes a record answered by the service, sharing its expanded ranks. */
  compact(lookup: MemberLookup): MirroredMember {
    const own = lookup.assignments.filter((a) => a.memberId === lookup.member.id);
    return mirroredMember(
      lookup.member,
      own.map((a) => this.assignment(a)),
    );
  }

  /** Shapes an assignment read from the service, sharing its expanded rank. */
  assignment(assignment: ApiAssignment): MirroredAssignment {
    return mirroredAssignment(assignment, (rank) => this.sharedRank(rank));
  }

  /**
   * A full read starts: answers heard from now on are applied on top of its result, and the ids
   * the audit log names from now on are kept for it.
   */
  beginRead(): void {
    this.heardDuringRead = new Map();
    this.fullRead = this.openWindow();
  }

  /** A full read failed or was abandoned: what it would have replaced stays. */
  abandonRead(): void {
    this.heardDuringRead = null;
    if (this.fullRead) this.closeWindow(this.fullRead);
    this.fullRead = null;
  }

  /**
   * A read of members starts: the ids the audit log names from now until `closeWindow` are kept
   * for it, so the members it brings that a change named meanwhile are read again.
   */
  openWindow(): NamedWindow {
    const window = new NamedWindow();
    this.windows.add(window);
    return window;
  }

  closeWindow(window: NamedWindow): void {
    this.windows.delete(window);
  }

  /**
   * Ids (any value of an audit entry) the audit log named just now: the members a read under way
   * brings that they name are read again before they are answered. Nothing when no read runs: the
   * feed re-reads the members it finds held.
   */
  named(ids: Iterable<string>): void {
    if (this.windows.size === 0) return;
    const list = [...ids];
    for (const window of this.windows) window.add(list);
  }

  /**
   * A full read that began at `readAt` (this server's time) completed: its members replace
   * everything held, then the answers heard meanwhile. The members the audit log named while it ran
   * are held but doubted (looked up, not answered) until read again: the caller reads them.
   */
  replaceAll(members: Iterable<MirroredMember>, readAt = this.clock.now()): ReadReplaced {
    const heard = this.heardDuringRead ?? new Map<string, MirroredMember | null>();
    const window = this.fullRead ?? new NamedWindow();
    this.abandonRead();
    this.byLicense = new Map();
    this.licenseById = new Map();
    this.licenseByAssignment = new Map();
    this.doubted.clear();
    this.putAll([...members], readAt);
    for (const [key, member] of heard) {
      if (member === null) this.remove(key);
      else this.put(member);
    }
    const replaced = this.doubtNamed(window, null);
    this.ready = true;
    this.wholeSince = readAt;
    this.checkSize();
    return replaced;
  }

  /**
   * Members read since the last read (created after it), read at `readAt`; those the audit log
   * named while `window` was open are doubted until read again (the caller reads them).
   */
  addAll(members: Iterable<MirroredMember>, readAt = this.clock.now(), window?: NamedWindow): ReadReplaced {
    const all = [...members];
    this.putAll(all, readAt);
    if (window) this.closeWindow(window);
    const replaced = window
      ? this.doubtNamed(window, new Set(all.map((m) => m.id)))
      : { named: [], overflowed: false };
    this.checkSize();
    return replaced;
  }

  /**
   * Doubts the licenses held whose member or assignment ids `window` saw named (of the members
   * `only`, when given): their records may predate the change.
   */
  private doubtNamed(window: NamedWindow, only: ReadonlySet<string> | null): ReadReplaced {
    const named = new Set<string>();
    for (const id of window.ids) {
      const key = this.licenseNamedBy(id);
      if (key === undefined) continue;
      if (only !== null && !only.has(this.byLicense.get(key)?.id ?? '')) continue;
      named.add(key);
    }
    for (const key of named) this.doubt(key);
    return { named: [...named], overflowed: window.overflowed };
  }

  /**
   * Holds `members` (stamped `readAt` unless null: restored records keep theirs). Where several
   * claim one license, among them and with the one held, the most recent membership is held.
   */
  private putAll(members: MirroredMember[], readAt: number | null): void {
    const shared = sharedLicenses(members);
    for (const member of members) {
      if (readAt !== null) member.readAt = readAt;
      const key = licenseKey(member.license);
      const claims = shared.get(key);
      if (claims !== undefined && claims[0] !== member) continue;
      const holder = this.byLicense.get(key);
      if (holder !== undefined && holder.id !== member.id) {
        const newer = isNewerMembership(membershipOf(member), membershipOf(holder));
        const ids = newer ? [member.id, holder.id] : [holder.id, member.id];
        this.claims.note(key, ids, ids[0]!);
        if (!newer) continue;
      }
      this.put(member);
    }
    for (const [key, claims] of shared)
      this.claims.note(
        key,
        claims.map((m) => m.id),
        claims[0]!.id,
      );
  }

  /** Forgets everything (the mirror is turned off). */
  clear(): void {
    this.byLicense = new Map();
    this.licenseById = new Map();
    this.licenseByAssignment = new Map();
    this.ranks.clear();
    this.doubted.clear();
    this.abandonRead();
    this.windows.clear();
    this.ready = false;
    this.wholeSince = null;
    this.savedCatalog = null;
  }

  private put(member: MirroredMember): void {
    const key = licenseKey(member.license);
    const previous = this.licenseById.get(member.id);
    if (previous !== undefined && previous !== key) this.byLicense.delete(previous);
    const replaced = this.byLicense.get(key);
    if (replaced && replaced.id !== member.id) this.licenseById.delete(replaced.id);
    if (replaced) this.unindexAssignments(replaced);
    this.byLicense.set(key, member);
    this.licenseById.set(member.id, key);
    for (const assignment of member.assignments) this.licenseByAssignment.set(assignment.id, key);
  }

  private unindexAssignments(member: MirroredMember): void {
    for (const assignment of member.assignments) this.licenseByAssignment.delete(assignment.id);
  }

  private remove(key: string): void {
    const member = this.byLicense.get(key);
    if (!member) return;
    this.byLicense.delete(key);
    this.licenseById.delete(member.id);
    this.unindexAssignments(member);
  }

  private checkSize(): void {
    if (this.byLicense.size > this.maxEntries) this.tooLarge(this.byLicense.size);
  }

  private sharedRank(rank: ApiRank): ApiRank {
    const known = this.ranks.get(rank.id);
    if (known && known.name === rank.name && known.position === rank.position) return known;
    if (this.ranks.size >= MAX_SHARED_RANKS && !known) return rank;
    this.ranks.set(rank.id, rank);
    return rank;
  }
}

/** The ids the audit log named while one read ran, at most `MAX_NAMED_DURING_READ`. */
export class NamedWindow {
  readonly ids = new Set<string>();
  overflowed = false;

  add(ids: readonly string[]): void {
    for (const id of ids) {
      if (this.ids.size >= MAX_NAMED_DURING_READ) {
        this.overflowed = true;
        return;
      }
      this.ids.add(id);
    }
  }
}
