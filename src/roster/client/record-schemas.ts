import { z } from 'zod';
import type { ApiAssignment, ApiDepartment, ApiMember, ApiRank } from '../model';

// Ids may be strings or numbers depending on the service's storage; the resource uses strings.
const id = z.union([z.string().min(1), z.number()]).transform(String);
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

export const rankSchema = z
  .looseObject({
    id,
    departmentId: id.nullish().transform((value) => value ?? null),
    name: z.string(),
    position: z.number(),
  })
  .transform(
    (raw): ApiRank => ({
      id: raw.id,
      departmentId: raw.departmentId,
      name: raw.name,
      position: raw.position,
    }),
  );

export const assignmentSchema = z
  .looseObject({
    id,
    memberId: id,
    departmentId: id,
    rankId: id.nullish().transform((value) => value ?? null),
    isPrimary: z.boolean().nullish(),
    callsign: optionalText,
    rank: rankSchema.nullish().catch(null),
  })
  .transform(
    (raw): ApiAssignment => ({
      id: raw.id,
      memberId: raw.memberId,
      departmentId: raw.departmentId,
      rankId: raw.rankId ?? raw.rank?.id ?? null,
      isPrimary: raw.isPrimary ?? false,
      callsign: raw.callsign,
      rank: raw.rank ?? null,
    }),
  );

/** A member record; `departmentAssignments`, when inlined, is checked record by record later. */
export const memberSchema = z.looseObject({
  id,
  status: z.string(),
  gameLicense: z.string().min(1),
  displayName: optionalText,
  name: optionalText,
  departmentAssignments: z.array(z.unknown()).nullish(),
  createdAt: z.unknown().optional(),
});

export type MemberRecord = z.output<typeof memberSchema>;

export function toApiMember(raw: MemberRecord, assignments: ApiAssignment[] | undefined): ApiMember {
  const member: ApiMember = {
    id: raw.id,
    status: raw.status,
    gameLicense: raw.gameLicense,
    name: raw.displayName || raw.name || raw.id,
  };
  if (typeof raw.createdAt === 'string') member.createdAt = raw.createdAt;
  if (assignments) member.departmentAssignments = assignments;
  return member;
}

export const departmentSchema = z
  .looseObject({ id, name: z.string(), shortName: optionalText, createdAt: z.unknown().optional() })
  .transform((raw): ApiDepartment => {
    const department: ApiDepartment = { id: raw.id, name: raw.name, shortName: raw.shortName };
    if (typeof raw.createdAt === 'string') department.createdAt = raw.createdAt;
    return department;
  });
