import type { ApiAssignment, ApiRank, MemberLookup } from '../model';
import { CatalogIndex } from '../roster/catalog-index';
import { type MemberView, toMemberView } from '../roster/member-view';
import type { MemberMirror } from '../roster/roster-service';
import {
  claimedTwice,
  licenseKey,
  lookupOf,
  type MirroredAssignment,
  type MirroredMember,
  mirroredAssignment,
  mirroredMember,
} from './mirrored-member';

/** Distinct expanded ranks shared at most: a community has dozens; past this each keeps its own. */
const MAX_SHARED_RANKS = 10_000;

/**
 * The members of the whole roster by license. It answers only once a full read completed (or a
 * restored snapshot caught up), and only for licenses it holds: a license it lacks is never "not on
 * the roster", just unknown. Until then what it holds serves as last known records only.
 * Every answer the service gives replaces what it holds for that license; answers that come while
 * a full read runs are kept aside and applied on top of it, so the read never brings back a
 * record older than one already answered.
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
  private ready = false;
  /**
   * Licenses whose record may be out of date (a change named them and their re-read failed): not
   * answered, only last known, until the service answers for them. At most `maxEntries`.
   */
  private doubted = new Set<string>();
  /** Departments and ranks saved with a restored snapshot: names for last known records offline. */
  private savedCatalog: CatalogIndex | null = null;

  /** `tooLarge` is told when more than `maxEntries` members would be held. */
  constructor(
    private readonly maxEntries: number,
    private readonly tooLarge: (size: number) => void,
  ) {}

  /** True once a full read completed: from then on the licenses held are answered. */
  get complete(): boolean {
    return this.ready;
  }

  get size(): number {
    return this.byLicense.size;
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

  find(license: string, catalog: CatalogIndex): MemberView | undefined {
    if (!this.answering || this.doubted.has(licenseKey(license))) return undefined;
    const member = this.byLicense.get(licenseKey(license));
    return member ? toMemberView(lookupOf(member, catalog), catalog) : undefined;
  }

  /** What it holds for `license` however current: for the outage policy only. */
  lastKnown(license: string, catalog: CatalogIndex | null): MemberView | undefined {
    const member = this.byLicense.get(licenseKey(license));
    if (!member) return undefined;
    const names = catalog ?? this.savedCatalog ?? new CatalogIndex();
    return toMemberView(lookupOf(member, names), names);
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
    for (const member of members) this.put(member);
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

  /** A full read starts: answers heard from now on are applied on top of its result. */
  beginRead(): void {
    this.heardDuringRead = new Map();
  }

  /** A full read failed or was abandoned: what it would have replaced stays. */
  abandonRead(): void {
    this.heardDuringRead = null;
  }

  /**
   * A full read completed: its members replace everything held, then the answers heard meanwhile.
   * A license two of its members claim (a service answering wrongly) is not held: looked up at the
   * join, as the service answers it then, rather than decided on whichever record came last.
   */
  replaceAll(members: Iterable<MirroredMember>): void {
    const heard = this.heardDuringRead ?? new Map<string, MirroredMember | null>();
    this.heardDuringRead = null;
    this.byLicense = new Map();
    this.licenseById = new Map();
    this.licenseByAssignment = new Map();
    const all = [...members];
    const claimed = claimedTwice(all);
    for (const member of all) if (!claimed.has(licenseKey(member.license))) this.put(member);
    for (const [key, member] of heard) {
      if (member === null) this.remove(key);
      else this.put(member);
    }
    this.ready = true;
    this.checkSize();
  }

  /**
   * Members read since the last read (created after it). One claiming a license another member
   * holds is not held, nor is that other: which one the license is cannot be told from here.
   */
  addAll(members: Iterable<MirroredMember>): void {
    const all = [...members];
    const claimed = claimedTwice(all);
    for (const member of all) {
      const key = licenseKey(member.license);
      const holder = this.byLicense.get(key);
      if (claimed.has(key) || (holder && holder.id !== member.id)) this.remove(key);
      else this.put(member);
    }
    this.checkSize();
  }

  /** Forgets everything (the mirror is turned off). */
  clear(): void {
    this.byLicense = new Map();
    this.licenseById = new Map();
    this.licenseByAssignment = new Map();
    this.ranks.clear();
    this.doubted.clear();
    this.heardDuringRead = null;
    this.ready = false;
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
