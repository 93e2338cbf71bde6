import type { Clock } from '../../platform/ports';
import { CatalogIndex } from '../../roster/catalog-index';
import type { LicenseClaims } from '../../roster/claimed-licenses';
import type { HeldRecord, KnownRecord, MemberMirror } from '../../roster/member-mirror';
import { toMemberView } from '../../roster/member-view';
import type { ApiAssignment, MemberLookup } from '../../roster/model';
import { applyCopiedRows } from './copied-rows';
import { DoubtedRecords } from './doubted-records';
import { type CopiedRows, MemberIndex, type MirrorChangeListener } from './member-index';
import {
  licenseKey,
  lookupOf,
  type MirroredAssignment,
  type MirroredMember,
  sameRecord,
} from './mirrored-member';
import { type NamedWindow, type ReadReplaced, ReadsUnderWay } from './named-window';
import { RecordShapes } from './record-shapes';

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
  private readonly index: MemberIndex;
  private readonly shapes = new RecordShapes();
  private readonly reads = new ReadsUnderWay();
  private ready = false;
  /** When the last full read that replaced everything held began; null: none this run. */
  private wholeSince: number | null = null;
  /** Told to the change listener too: a copy kept elsewhere stops answering for them as well. */
  private readonly doubted: DoubtedRecords;
  /** Departments and ranks saved with a restored snapshot: names for last known records offline. */
  private savedCatalog: CatalogIndex | null = null;
  /** Told of what the service's answers and the reads change; not of what a copy brings (`applyShared`). */
  private changed: MirrorChangeListener = () => undefined;

  /**
   * `tooLarge` is told when more than `maxEntries` members would be held; `claims` of each license
   * several members claim, whenever a read finds one.
   */
  constructor(
    private readonly maxEntries: number,
    private readonly tooLarge: (size: number) => void,
    private readonly clock: Pick<Clock, 'now'> = { now: () => 0 },
    claims: LicenseClaims = { note: () => undefined },
  ) {
    this.index = new MemberIndex(claims);
    this.doubted = new DoubtedRecords(maxEntries, (key) => {
      const held = this.index.get(key);
      if (held) this.changed([], [], [held]);
    });
  }

  get wholeAt(): number | null {
    return this.wholeSince;
  }

  /** True once a full read completed: from then on the licenses held are answered. */
  get complete(): boolean {
    return this.ready;
  }

  get size(): number {
    return this.index.size;
  }

  /** One listener of the changes the service's answers and the reads make; null for none. */
  onChange(listener: MirrorChangeListener | null): void {
    this.changed = listener ?? (() => undefined);
  }

  /** Records another server read (`applyCopiedRows`); not told to the change listener. */
  applyShared(rows: CopiedRows, newerOnly = false): string[] {
    const changed = applyCopiedRows(
      { index: this.index, reads: this.reads, doubted: this.doubted },
      rows,
      newerOnly,
    );
    this.checkSize();
    return changed;
  }

  /** Whether any of `ids` is the member id or an assignment id of a member held. */
  namesAnyHeld(ids: Iterable<string>): boolean {
    for (const id of ids) if (this.licenseNamedBy(id) !== undefined) return true;
    return false;
  }

  /** The license of the member held whose member id or assignment id is `id`. */
  licenseNamedBy(id: string): string | undefined {
    return this.index.licenseNamedBy(id);
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
    const member = this.index.get(key);
    if (!member) return undefined;
    return {
      answer: answers ? toMemberView(lookupOf(member, catalog), catalog) : undefined,
      readAt: member.readAt,
    };
  }

  /** What it holds for `license` however current, with when it was read: for the outage policy only. */
  lastKnown(license: string, catalog: CatalogIndex | null): KnownRecord | undefined {
    const member = this.index.get(licenseKey(license));
    if (!member) return undefined;
    const names = catalog ?? this.savedCatalog ?? new CatalogIndex();
    return { view: toMemberView(lookupOf(member, names), names), readAt: member.readAt };
  }

  /** Every member held (for the snapshot). */
  members(): IterableIterator<MirroredMember> {
    return this.index.values();
  }

  /**
   * Members loaded from a snapshot, with the departments and ranks saved beside them: held, found
   * by id for the audit feed and as last known records, but not answered until `trust`.
   */
  restore(members: Iterable<MirroredMember>, catalog: CatalogIndex): void {
    this.clear();
    this.savedCatalog = catalog;
    this.index.putAll([...members], null);
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
      this.index.put(member);
      this.reads.heard(licenseKey(member.license), member);
      this.checkSize();
      this.changed([member], []);
      return;
    }
    const key = licenseKey(license);
    const gone = this.index.get(key);
    this.index.remove(key);
    this.reads.heard(key, null);
    if (gone) this.changed([], [gone.id]);
  }

  doubt(license: string): void {
    this.doubted.add(licenseKey(license));
  }

  /** Shapes a record answered by the service, sharing its expanded ranks. */
  readonly compact = (lookup: MemberLookup): MirroredMember => this.shapes.compact(lookup);

  /** Shapes an assignment read from the service, sharing its expanded rank. */
  readonly assignment = (assignment: ApiAssignment): MirroredAssignment => this.shapes.assignment(assignment);

  /**
   * A full read starts: answers heard from now on are applied on top of its result, and the ids
   * the audit log names from now on are kept for it.
   */
  beginRead(): void {
    this.reads.beginFull();
  }

  /** A full read failed or was abandoned: what it would have replaced stays. */
  abandonRead(): void {
    this.reads.abandonFull();
  }

  /**
   * A read of members starts: the ids the audit log names from now until `closeWindow` are kept
   * for it, so the members it brings that a change named meanwhile are read again.
   */
  readonly openWindow = (): NamedWindow => this.reads.open();

  readonly closeWindow = (window: NamedWindow): void => this.reads.close(window);

  /**
   * Ids (any value of an audit entry) the audit log named just now: the members a read under way
   * brings that they name are read again before they are answered. Nothing when no read runs: the
   * feed re-reads the members it finds held.
   */
  named(ids: Iterable<string>): void {
    this.reads.named(ids);
  }

  /**
   * A full read that began at `readAt` (this server's time) completed: its members replace
   * everything held, then the answers heard meanwhile. The members the audit log named while it ran
   * are held but doubted (looked up, not answered) until read again: the caller reads them.
   */
  replaceAll(members: Iterable<MirroredMember>, readAt = this.clock.now()): ReadReplaced {
    const { heard, window } = this.reads.endFull();
    const before = new Set<string>();
    for (const member of this.index.values()) before.add(member.id);
    this.index.clear();
    this.doubted.clear();
    this.index.putAll([...members], readAt);
    // An answer heard while the read ran may be older than the page that brought its license (a
    // read stretched by 429s): where they differ, which is newer is unknown, so it is read again.
    const differ: string[] = [];
    for (const [key, member] of heard) {
      const paged = this.index.get(key);
      if (member !== null && paged !== undefined && !sameRecord(paged, member)) differ.push(key);
      if (member === null) this.index.remove(key);
      else this.index.put(member);
    }
    this.ready = true;
    this.wholeSince = readAt;
    this.checkSize();
    const held = [...this.index.values()];
    for (const member of held) before.delete(member.id);
    this.changed(held, [...before]);
    // After the records are told: a copy elsewhere holds the doubted ones as doubted.
    const replaced = this.doubtNamed(window, null);
    for (const key of differ) this.doubt(key);
    return { ...replaced, named: [...new Set([...replaced.named, ...differ])] };
  }

  /**
   * Members read since the last read (created after it), read at `readAt`; those the audit log
   * named while `window` was open are doubted until read again (the caller reads them).
   */
  addAll(members: Iterable<MirroredMember>, readAt = this.clock.now(), window?: NamedWindow): ReadReplaced {
    const all = [...members];
    this.index.putAll(all, readAt);
    this.changed(
      all.filter((member) => this.index.get(licenseKey(member.license)) === member),
      [],
    );
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
    const idOf = (key: string) => this.index.get(key)?.id;
    const named = window.heldNamed((id) => this.licenseNamedBy(id), idOf, only);
    for (const key of named) this.doubt(key);
    return { named, overflowed: window.overflowed };
  }

  /** Forgets everything (the mirror is turned off). */
  clear(): void {
    this.index.clear();
    this.shapes.clear();
    this.doubted.clear();
    this.reads.clear();
    this.ready = false;
    this.wholeSince = null;
    this.savedCatalog = null;
  }

  private checkSize(): void {
    if (this.index.size > this.maxEntries) this.tooLarge(this.index.size);
  }
}
