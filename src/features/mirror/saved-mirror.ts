import { z } from 'zod';
import type { ApiRank, Catalog } from '../../roster/model';
import type { AuditPosition } from '../audit/audit-feed';
import type { MirrorState } from './mirror-state';
import type { MirroredAssignment, MirroredMember } from './mirrored-member';
import type { Stamp } from './roster-reads';

/** Most members the snapshot keeps of the mirror: the file is read back, and written at stop, on the game thread. */
export const SAVED_MIRROR_LIMIT = 50_000;

/** The mirror as `roster-snapshot.json` keeps it across restarts. */
export interface SavedMirror {
  /** This server's time when the last full read completed: how old what it holds may be. */
  fullReadAt: number;
  /**
   * Where the audit feed had handled the log (service time), with every change since the last full
   * read applied; null when a catch-up from it could not make the mirror current (a gap since).
   */
  audit: AuditPosition | null;
  /** The newest member `createdAt` read, as the service stamped it: members created since are read. */
  newestMember: Stamp | null;
  /** Departments and ranks: names for last known records while the service cannot be asked. */
  catalog: Catalog;
  members: MirroredMember[];
  /** The mirror's requests on the UTC day `day` (days since the epoch), so a restart keeps the count. */
  spent: { day: number; requests: number };
  /**
   * The community whose roster it holds (`communityKey`); null when not known. A key of another
   * community at the next start must not find this roster's members on its own.
   */
  community: string | null;
}

/*
 * Members are written as tuples, not objects: a roster of 50,000 stays a few MB, and the write
 * at stop (synchronous) stays short. Expanded ranks are written once and referred to by index.
 *   member:     [id, name, status, license, assignments, createdAt, readAt] (the last two left out
 *               by snapshots written before they were kept: then unknown, and read at the last full read)
 *   assignment: [id, departmentId, rankId, isPrimary, callsign, rank index or -1]
 *   rank:       [id, departmentId, name, position]
 */
const text = z.string().max(2_000);
const rankTuple = z.tuple([text, text.nullable(), text, z.number()]);
const assignmentTuple = z.tuple([
  text,
  text,
  text.nullable(),
  z.boolean(),
  text.nullable(),
  z.number().int(),
]);
const memberTuple = z.tuple([
  text,
  text,
  text,
  text,
  z.array(assignmentTuple).max(1_000),
  text.nullable().optional(),
  z.number().optional(),
]);
const stampText = text.refine((value) => Number.isFinite(Date.parse(value)), 'not a time');

const savedMirrorSchema = z.object({
  fullReadAt: z.number(),
  audit: z.object({ at: stampText.nullable() }).nullable(),
  newestMember: stampText.nullable(),
  catalog: z.object({
    departments: z
      .array(z.object({ id: text, name: text, shortName: text.nullable(), createdAt: text.optional() }))
      .max(10_000),
    ranks: z.array(rankTuple).max(100_000),
  }),
  ranks: z.array(rankTuple).max(100_000),
  members: z.array(memberTuple).max(SAVED_MIRROR_LIMIT),
  spent: z.object({ day: z.number().int(), requests: z.number().int().min(0) }),
  // Left out by snapshots written before it was kept: then not known.
  community: text.nullable().optional(),
});

type RankTuple = z.infer<typeof rankTuple>;

/** What tells one community's roster from another's: its id, else (a service that gives none) its name. */
export function communityKey(community: { id: string | null; name: string }): string {
  return community.id !== null ? `id:${community.id}` : `name:${community.name}`;
}

/**
 * How a restart begins from a saved mirror (`now`: this server's time): caught up on the audit
 * log when its last full read is younger than `mirror.resyncMinutes` and it was saved in step with
 * the log; else stale. A full read dated after now (the clock went back) cannot be aged: stale.
 */
export function restartState(saved: SavedMirror, now: number, resyncMs: number): MirrorState {
  const age = now - saved.fullReadAt;
  if (saved.audit === null) return { kind: 'stale', why: 'saved out of step with the audit log' };
  if (age < 0 || age >= resyncMs)
    return { kind: 'stale', why: 'its last full read is older than mirror.resyncMinutes' };
  return { kind: 'catching-up', from: 'snapshot' };
}

/** The mirror in the snapshot's JSON shape. */
export function encodeMirror(saved: SavedMirror): unknown {
  const ranks = new ExpandedRanks();
  const members = saved.members.map((m) => tupleOf(m, ranks));
  return { ...headOf(saved), ranks: ranks.tuples, members };
}

/** Members encoded in one piece of `mirrorJson`: a few milliseconds of work, about 200 KB of text. */
export const MEMBERS_PER_PIECE = 1_000;

/**
 * The mirror in the snapshot's JSON shape as text, in pieces made one at a time as they are taken:
 * each encodes at most `membersPerPiece` members, so a large mirror is written a piece per server
 * frame. Joined, the pieces parse to what `encodeMirror` gives; the expanded ranks come last,
 * collected while the members are encoded. `saved` is read as the pieces are taken: the mirror's
 * `toSave` hands a list of its own, and the mirror replaces a record on a change, never edits it,
 * so what is written is the mirror as it stood when the save began.
 */
export function* mirrorJson(saved: SavedMirror, membersPerPiece = MEMBERS_PER_PIECE): Generator<string> {
  const ranks = new ExpandedRanks();
  yield `${JSON.stringify(headOf(saved)).slice(0, -1)},"members":[`;
  for (let from = 0; from < saved.members.length; from += membersPerPiece) {
    const tuples = saved.members.slice(from, from + membersPerPiece).map((m) => tupleOf(m, ranks));
    yield `${from === 0 ? '' : ','}${JSON.stringify(tuples).slice(1, -1)}`;
  }
  yield `],"ranks":${JSON.stringify(ranks.tuples)}}`;
}

/** Everything of the saved mirror but its members and their expanded ranks. */
function headOf(saved: SavedMirror) {
  return {
    fullReadAt: saved.fullReadAt,
    audit: saved.audit && { at: saved.audit.at === null ? null : new Date(saved.audit.at).toISOString() },
    newestMember: saved.newestMember?.text ?? null,
    catalog: { departments: saved.catalog.departments, ranks: saved.catalog.ranks.map(rankToTuple) },
    spent: saved.spent,
    community: saved.community,
  };
}

/** The expanded ranks the members' assignments carry, each written once and referred to by index. */
class ExpandedRanks {
  readonly tuples: RankTuple[] = [];
  private readonly index = new Map<ApiRank, number>();

  indexOf(rank: ApiRank | null): number {
    if (rank === null) return -1;
    let index = this.index.get(rank);
    if (index === undefined) {
      index = this.tuples.push(rankToTuple(rank)) - 1;
      this.index.set(rank, index);
    }
    return index;
  }
}

/** A member as the snapshot writes it (the tuple described above). */
function tupleOf(m: MirroredMember, ranks: ExpandedRanks): unknown[] {
  return [
    m.id,
    m.name,
    m.status,
    m.license,
    m.assignments.map((a) => [
      a.id,
      a.departmentId,
      a.rankId,
      a.isPrimary,
      a.callsign,
      ranks.indexOf(a.rank),
    ]),
    m.createdAt,
    m.readAt,
  ];
}

/** The mirror read back from the snapshot, or why it cannot be. */
export function decodeMirror(json: unknown): { saved: SavedMirror } | { problem: string } {
  const parsed = savedMirrorSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `${issue?.path.slice(0, 3).join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim() };
  }
  const data = parsed.data;
  const ranks = data.ranks.map(rankOf);
  const members = data.members.map(
    ([id, name, status, license, assignments, createdAt, readAt]): MirroredMember => ({
      id,
      name,
      status,
      license,
      createdAt: createdAt ?? null,
      readAt: readAt ?? data.fullReadAt,
      assignments: assignments.map(
        ([aid, departmentId, rankId, isPrimary, callsign, rank]): MirroredAssignment => ({
          id: aid,
          departmentId,
          rankId,
          isPrimary,
          callsign,
          rank: ranks[rank] ?? null,
        }),
      ),
    }),
  );
  const newest = data.newestMember;
  return {
    saved: {
      fullReadAt: data.fullReadAt,
      audit: data.audit && { at: data.audit.at === null ? null : Date.parse(data.audit.at) },
      newestMember: newest === null ? null : { text: newest, at: Date.parse(newest) },
      catalog: { departments: data.catalog.departments, ranks: data.catalog.ranks.map(rankOf) },
      members,
      spent: data.spent,
      community: data.community ?? null,
    },
  };
}

function rankToTuple(rank: ApiRank): RankTuple {
  return [rank.id, rank.departmentId, rank.name, rank.position];
}

function rankOf([id, departmentId, name, position]: RankTuple): ApiRank {
  return { id, departmentId, name, position };
}
