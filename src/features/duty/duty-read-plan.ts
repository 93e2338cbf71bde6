/** Members asked for in one request (the member filter repeated), and records per page. */
export const DUTY_BATCH = 100;

/**
 * How far before the last read the next one asks for sessions stored: one stamped a little before
 * it could be listed (a slow commit, the service's time known to the second) is still found;
 * reading one twice costs rows, not requests.
 */
export const OVERLAP_MS = 10 * 60_000;
/**
 * How far back this server's community read goes to carry on where another server's stopped
 * (`CommunitySource.carryOn`): further back it starts afresh, and the servers that followed that
 * one read their own members' gap themselves.
 */
export const CARRY_ON_MS = 3_600_000;
/** The most requests one refresh may send: one per 100 online members. */
export function dutyBudget(onlineMembers: number): number {
  return Math.ceil(onlineMembers / DUTY_BATCH);
}

/** A read of every session of a member that began in the window; it may take several refreshes. */
export interface FullRead {
  /** Asks for sessions that began after this: the window's start, then where a cut-short read stopped. */
  startedAfter: number;
  /** The service's time as it began: the sessions stored since are read next. */
  began: number;
  /** Sessions held as it began that it has not listed yet: gone from the service when it ends. */
  unlisted: Set<string>;
}

/** Where a member's reads stand. */
export interface MemberReads {
  /** Every session of the member stored before this (service time) was read; null before a full read. */
  storedAfter: number | null;
  /** The refresh from which a read is due: who waited longest is read first. */
  due: number;
  full: FullRead | null;
  /** A full read is wanted (never read, or named by the audit log); it begins at the member's turn. */
  fullWanted: boolean;
  /** Where a read of the member's sessions still on duty, cut short, goes on; null: from the first. */
  openAfter: number | null;
}

/** A member just online: a full read is due from this refresh. */
export function unread(turn: number): MemberReads {
  return { storedAfter: null, due: turn, full: null, fullWanted: true, openAfter: null };
}

/**
 * What one request reads: `full`, every session of its members that began in the window;
 * `stored`, what was stored for its members since they were last read (members the community's
 * read does not cover); `open`, its members' sessions still on duty again, to see them end;
 * `community`, everything the community stored since the last such read, no member filter.
 */
export type BatchKind = 'full' | 'stored' | 'open' | 'community';

export interface Batch {
  kind: BatchKind;
  members: string[];
  due: number;
}

export interface PlanOptions {
  /** Whether the member holds a session still on duty. */
  onDuty(member: string): boolean;
  /**
   * From when what was stored is known for every member without a read of their own (this
   * server's community read, or the one shared by the other servers): a member whose own reads
   * stop before it is read by `stored` batches. Null: nothing covers them.
   */
  coveredFrom: number | null;
  /** When this server's community read is due; null when it sends none (another server does). */
  communityDue: number | null;
}

/** Of batches due as long, the one whose members may have no hours yet goes first. */
const ORDER: Record<BatchKind, number> = { full: 0, stored: 1, community: 2, open: 3 };

/**
 * The reads one refresh may send, in order: members due a full read (never read, or named by
 * the audit log), members whose stored sessions nothing else covers, members on duty, each kind
 * in batches of 100, and the community read; the batches due longest first.
 */
export function planBatches(reads: ReadonlyMap<string, MemberReads>, options: PlanOptions): Batch[] {
  const kinds: Record<Exclude<BatchKind, 'community'>, [string, MemberReads][]> = {
    full: [],
    stored: [],
    open: [],
  };
  for (const entry of reads) {
    const [name, member] = entry;
    if (member.full !== null || member.fullWanted || member.storedAfter === null) kinds.full.push(entry);
    else if (options.coveredFrom === null || member.storedAfter < options.coveredFrom)
      // A stored read goes back to the member's earliest session on duty too (see DutyReader).
      kinds.stored.push(entry);
    else if (options.onDuty(name)) kinds.open.push(entry);
  }
  const batches = [
    ...batchesOf(kinds.full, 'full'),
    ...batchesOf(kinds.stored, 'stored'),
    ...batchesOf(kinds.open, 'open'),
  ];
  if (options.communityDue !== null)
    batches.push({ kind: 'community', members: [], due: options.communityDue });
  return batches.sort((a, b) => a.due - b.due || ORDER[a.kind] - ORDER[b.kind]);
}

/** Batches of 100 members of one kind, those due longest first. */
function batchesOf(entries: [string, MemberReads][], kind: BatchKind): Batch[] {
  entries.sort(([, a], [, b]) => a.due - b.due || (a.storedAfter ?? 0) - (b.storedAfter ?? 0));
  const batches: Batch[] = [];
  for (let i = 0; i < entries.length; i += DUTY_BATCH) {
    const slice = entries.slice(i, i + DUTY_BATCH);
    batches.push({ kind, members: slice.map(([member]) => member), due: slice[0]![1].due });
  }
  return batches;
}
