import { z } from 'zod';
import type { AuditPosition } from '../audit/audit-feed';
import type { MirroredMember } from '../mirror/mirrored-member';
import type { ShareSchemas, ShareStore } from './share-store';

/*
 * A member as the shared table keeps it: the mirror's own compact record as JSON. Read back it is
 * validated as strictly as the service's answers are: a row another release, a hand edit or a
 * broken write left unreadable is ignored, never held.
 */
const text = z.string().max(2_000);
const rank = z.object({ id: text, departmentId: text.nullable(), name: text, position: z.number() });
const assignment = z.object({
  id: text,
  departmentId: text,
  rankId: text.nullable(),
  isPrimary: z.boolean(),
  callsign: text.nullable(),
  rank: rank.nullable(),
});
const record = z.object({
  id: text.min(1),
  name: text,
  status: text.min(1),
  license: text.min(1),
  assignments: z.array(assignment).max(1_000),
  createdAt: text.nullable(),
  readAt: z.number(),
  /** The reader doubts it (a change named the member, the re-read failed): last known only. */
  doubted: z.literal(true).optional(),
});

/** A shared member record: the mirror's record as it was read. */
export type SharedRecord = z.infer<typeof record>;

const auditPosition = z.object({ at: z.number().nullable() });

/** How the store validates what it reads back. */
export const SHARE_SCHEMAS: ShareSchemas<SharedRecord, AuditPosition> = {
  record,
  auditPosition,
};

/** The record a member is shared as. */
export function recordOf(member: MirroredMember): SharedRecord {
  return {
    id: member.id,
    name: member.name,
    status: member.status,
    license: member.license,
    assignments: member.assignments.map((a) => ({ ...a })),
    createdAt: member.createdAt,
    readAt: member.readAt,
  };
}

/** The mirror's member for a shared record (the row's read time is the one that counts). */
export function memberOf(shared: SharedRecord, readAt: number): MirroredMember {
  const { doubted: _doubted, ...member } = shared;
  return { ...member, readAt };
}

/** The shared tables as sharing the roster uses them: these records, positions in the audit log. */
export type Store = ShareStore<SharedRecord, AuditPosition>;
