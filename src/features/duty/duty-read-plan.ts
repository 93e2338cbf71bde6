/** Members asked for in one request (the member filter repeated), and records per page. */
export const DUTY_BATCH = 100;

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
  /** The next read asks for the sessions stored after this (service time); null before a full read. */
  storedAfter: number | null;
  /** The refresh from which a read is due: who waited longest is read first. */
  due: number;
  full: FullRead | null;
  /** A full read is wanted (never read, or named by the audit log); it begins at the member's turn. */
  fullWanted: boolean;
}

export interface Batch {
  full: boolean;
  members: string[];
  due: number;
}

/**
 * The reads one refresh may send, in order: members due a full read (never read, or named by the
 * audit log) and members read by what was stored since, each kind in batches of 100, the batches
 * due longest first. Of two due as long, the full read goes first: its members may have no hours
 * yet.
 */
export function planBatches(reads: ReadonlyMap<string, MemberReads>): Batch[] {
  const full: [string, MemberReads][] = [];
  const stored: [string, MemberReads][] = [];
  for (const entry of reads) {
    const [, member] = entry;
    (member.full !== null || member.fullWanted || member.storedAfter === null ? full : stored).push(entry);
  }
  const batches = [...batchesOf(full, true), ...batchesOf(stored, false)];
  return batches.sort((a, b) => a.due - b.due || Number(b.full) - Number(a.full));
}

/** Batches of 100 members of one kind, those due longest first. */
function batchesOf(entries: [string, MemberReads][], full: boolean): Batch[] {
  entries.sort(([, a], [, b]) => a.due - b.due || (a.storedAfter ?? 0) - (b.storedAfter ?? 0));
  const batches: Batch[] = [];
  for (let i = 0; i < entries.length; i += DUTY_BATCH) {
    const slice = entries.slice(i, i + DUTY_BATCH);
    batches.push({ full, members: slice.map(([member]) => member), due: slice[0]![1].due });
  }
  return batches;
}
