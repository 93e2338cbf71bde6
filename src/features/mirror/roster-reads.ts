import type { Logger } from '../../platform/ports';
import { ROSTER_ROUTES } from '../../roster/client';
import {
  assignmentSchema,
  type MemberRecord,
  memberSchema,
  toApiMember,
} from '../../roster/client/record-schemas';
import type { ApiMember } from '../../roster/model';
import { readList } from './list-read';
import type { MirrorPacer } from './mirror-pacer';
import { type MirroredAssignment, type MirroredMember, mirroredMember } from './mirrored-member';
import type { PageSource } from './paced-pages';
import { RecordReader } from './record-reader';
import type { RosterMirror } from './roster-mirror';

/** Members per assignments request of new members: their assignments then fit in one page. */
const MEMBERS_PER_REQUEST = 75;
/** A member holds a handful of assignments; ten each on average means the paging is broken. */
const ASSIGNMENTS_PER_MEMBER = 10;

export interface RosterReadDeps {
  source: PageSource;
  pacer: MirrorPacer;
  logger: Logger;
  /** Shapes assignments compactly, sharing expanded ranks; tells which members it holds. */
  mirror: Pick<RosterMirror, 'assignment' | 'licenseNamedBy'>;
  /** `cache.maxEntries`: a roster with more members is not kept. */
  maxEntries: number;
}

/** A member's `createdAt` as the service stamped it, and as a time to compare. */
export interface Stamp {
  text: string;
  at: number;
}

export type WholeRoster =
  | { kind: 'read'; members: MirroredMember[]; newest: Stamp | null }
  | { kind: 'too-large'; size: number };

/** A member read, with the assignments the service inlined (null: they are read separately). */
interface Found {
  member: ApiMember;
  inline: MirroredAssignment[] | null;
  stamp: Stamp | null;
}

/**
 * Every member, then every department assignment (rank expanded), 100 a page at the mirror's
 * pace, each list read by key and reconciled. Stops as soon as the roster is known to hold more
 * than `maxEntries` members. Where member records carry their assignments inline, the assignments
 * list is not read.
 */
export async function readWholeRoster(deps: RosterReadDeps): Promise<WholeRoster> {
  const listed = await readList(deps.source, deps.pacer, {
    path: ROSTER_ROUTES.members,
    query: {},
    maxPages: Math.ceil(deps.maxEntries / 100) + 1,
    atMost: deps.maxEntries,
  });
  if (listed.kind === 'too-many') return { kind: 'too-large', size: listed.size };
  const reader = new MemberReader(deps);
  reader.read(listed.records);
  reader.finish('the roster mirror read every member');
  const found = reader.found;
  const separate = new Set(found.filter((f) => f.inline === null).map((f) => f.member.id));
  const assignments = separate.size === 0 ? new Map() : await allAssignments(deps, separate);
  return { kind: 'read', members: shaped(found, assignments), newest: reader.newest };
}

/**
 * Members created after `after` (from a millisecond before it: members stamped the same
 * millisecond are not missed), with their assignments. Members already held that were stamped no
 * later than `after` are read again only for that overlap and left as held.
 */
export async function readNewMembers(
  deps: RosterReadDeps,
  after: Stamp,
): Promise<{ members: MirroredMember[]; newest: Stamp | null }> {
  const maxPages = Math.ceil(deps.maxEntries / 100) + 1;
  const listed = await readList(deps.source, deps.pacer, {
    path: ROSTER_ROUTES.members,
    query: {},
    after: after.at - 1,
    maxPages,
  });
  const reader = new MemberReader(deps);
  if (listed.kind === 'read') reader.read(listed.records);
  reader.finish('the roster mirror read new members');
  const found = reader.found.filter(
    (f) => !(f.stamp !== null && f.stamp.at <= after.at && deps.mirror.licenseNamedBy(f.member.id)),
  );
  const ids = found.filter((f) => f.inline === null).map((f) => f.member.id);
  const byMember = new Map<string, MirroredAssignment[]>();
  const assignmentReader = new RecordReader(assignmentSchema, 'department assignment');
  for (let start = 0; start < ids.length; start += MEMBERS_PER_REQUEST) {
    const memberId = ids.slice(start, start + MEMBERS_PER_REQUEST);
    const query = { memberId, include: 'rank' };
    const batch = await readList(deps.source, deps.pacer, {
      path: ROSTER_ROUTES.departmentAssignments,
      query,
      maxPages: ASSIGNMENTS_PER_MEMBER,
    });
    if (batch.kind === 'read')
      collect(deps, assignmentReader.read(batch.records), new Set(memberId), byMember);
  }
  assignmentReader.finish(deps.logger, 'the roster mirror read the assignments of new members');
  return { members: shaped(found, byMember), newest: reader.newest };
}

/** The whole assignments list, of the members read. */
async function allAssignments(
  deps: RosterReadDeps,
  members: ReadonlySet<string>,
): Promise<Map<string, MirroredAssignment[]>> {
  const listed = await readList(deps.source, deps.pacer, {
    path: ROSTER_ROUTES.departmentAssignments,
    query: { include: 'rank' },
    maxPages: Math.ceil((members.size * ASSIGNMENTS_PER_MEMBER) / 100) + 1,
  });
  const reader = new RecordReader(assignmentSchema, 'department assignment');
  const byMember = new Map<string, MirroredAssignment[]>();
  if (listed.kind === 'read') collect(deps, reader.read(listed.records), members, byMember);
  reader.finish(deps.logger, 'the roster mirror read every department assignment');
  return byMember;
}

function collect(
  deps: RosterReadDeps,
  assignments: ReturnType<RecordReader<typeof assignmentSchema>['read']>,
  members: ReadonlySet<string>,
  byMember: Map<string, MirroredAssignment[]>,
): void {
  for (const assignment of assignments) {
    if (!members.has(assignment.memberId)) continue;
    const held = byMember.get(assignment.memberId);
    const compact = deps.mirror.assignment(assignment);
    if (held) held.push(compact);
    else byMember.set(assignment.memberId, [compact]);
  }
}

function shaped(found: readonly Found[], assignments: ReadonlyMap<string, MirroredAssignment[]>) {
  return found.map((f) => mirroredMember(f.member, f.inline ?? assignments.get(f.member.id) ?? []));
}

/** Member records: the members, their inline assignments, the newest `createdAt`. */
class MemberReader {
  readonly found: Found[] = [];
  newest: Stamp | null = null;
  private readonly members = new RecordReader(memberSchema, 'member');
  private readonly inline = new RecordReader(assignmentSchema, 'department assignment');

  constructor(private readonly deps: RosterReadDeps) {}

  read(items: readonly unknown[]): void {
    for (const record of this.members.read(items)) {
      const stamp = stampOf(record);
      this.found.push({ member: toApiMember(record, undefined), inline: this.inlineOf(record), stamp });
      if (stamp && (this.newest === null || stamp.at > this.newest.at)) this.newest = stamp;
    }
  }

  finish(read: string): void {
    this.members.finish(this.deps.logger, read);
    this.inline.finish(this.deps.logger, read);
  }

  private inlineOf(record: MemberRecord): MirroredAssignment[] | null {
    if (!Array.isArray(record.departmentAssignments)) return null;
    // Inline assignments may leave out the member they belong to.
    const items = record.departmentAssignments.map((item) =>
      typeof item === 'object' && item !== null && !('memberId' in item)
        ? { ...item, memberId: record.id }
        : item,
    );
    return this.inline
      .read(items)
      .filter((a) => a.memberId === record.id)
      .map((a) => this.deps.mirror.assignment(a));
  }
}

function stampOf(record: MemberRecord): Stamp | null {
  const { createdAt } = record as { createdAt?: unknown };
  if (typeof createdAt !== 'string') return null;
  const at = Date.parse(createdAt);
  return Number.isFinite(at) ? { text: createdAt, at } : null;
}
