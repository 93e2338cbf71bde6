import { z } from 'zod';
import {
  SHARED_FACT_MOST_BYTES,
  type SharedFact,
  type SharedMemberRow,
  type SharedState,
  type ShareSchemas,
  ShareStoreError,
} from './share-store';

/*
 * Rows as the database gives them back, validated before anything of them is used: the tables
 * belong to the community's database, which anyone with its password can write to. Whole numbers
 * may come as strings (BIGINT past 2^53, or a driver set so); flags as booleans or 0/1.
 */
const whole = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d{1,16}$/)
      .transform(Number),
  ])
  .pipe(z.number().int());
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform(Boolean);
const name = z.string().min(1).max(191);

/** `roster_share_members` columns, as stored. */
export interface MemberColumns {
  member_id: unknown;
  license: unknown;
  record: unknown;
  read_at: unknown;
  version: unknown;
}

const memberColumns = z.object({
  member_id: name,
  license: name.nullable(),
  record: z.string().nullable(),
  read_at: whole,
  version: whole.pipe(z.number().min(0)),
});

/** A member row, or null when it does not parse (its JSON, its shape, or the record's shape). */
export function memberRow<R>(
  columns: MemberColumns,
  schemas: ShareSchemas<R, unknown>,
): SharedMemberRow<R> | null {
  const parsed = memberColumns.safeParse(columns);
  if (!parsed.success) return null;
  const { member_id, license, record, read_at, version } = parsed.data;
  if (record === null) return { memberId: member_id, license, record: null, readAt: read_at, version };
  if (license === null) return null;
  const json = parseJson(record);
  if (json === undefined) return null;
  const member = schemas.record.safeParse(json);
  if (!member.success) return null;
  return { memberId: member_id, license, record: member.data, readAt: read_at, version };
}

/** `roster_share_state` columns, as stored, with the database's time read beside them. */
export interface StateColumns {
  reader: unknown;
  lease_until: unknown;
  version: unknown;
  community: unknown;
  audit_position: unknown;
  full_read_at: unknown;
  complete: unknown;
  updated_at: unknown;
  now: unknown;
}

const stateColumns = z.object({
  reader: name.nullable(),
  lease_until: whole,
  version: whole.pipe(z.number().min(0)),
  community: z.string().max(2_000).nullable(),
  audit_position: z.string().nullable(),
  full_read_at: whole.nullable(),
  complete: flag,
  updated_at: whole,
  now: whole,
});

/**
 * The state row. One whose columns do not parse cannot be worked from (a version or a lease that
 * is not a number): an error, so sharing stops rather than guesses. An audit position that does
 * not parse is only unknown: null.
 */
export function stateRow<A>(columns: StateColumns, schemas: ShareSchemas<unknown, A>): SharedState<A> {
  const parsed = stateColumns.safeParse(columns);
  if (!parsed.success)
    throw new ShareStoreError('unreadable', 'The shared state row is not in the expected form.');
  const row = parsed.data;
  const json = row.audit_position === null ? undefined : parseJson(row.audit_position);
  const position = json === undefined ? null : schemas.auditPosition.safeParse(json);
  return {
    reader: row.reader,
    leaseUntil: row.lease_until,
    version: row.version,
    community: row.community,
    auditPosition: position?.success ? position.data : null,
    fullReadAt: row.full_read_at,
    complete: row.complete,
    updatedAt: row.updated_at,
    now: row.now,
  };
}

const factColumns = z.object({ value: z.string(), age: whole });

/**
 * A fact row: its JSON and age, or null when it does not parse (the caller then reads the service
 * itself). A fact written by a server whose clock ran ahead is as old as written now, not younger.
 */
export function factRow(value: unknown, age: unknown): SharedFact | null {
  const parsed = factColumns.safeParse({ value, age });
  if (!parsed.success) return null;
  const json = parseJson(parsed.data.value);
  return json === undefined ? null : { value: json, ageMs: Math.max(0, parsed.data.age) };
}

/** A fact as stored: its JSON, or null when it cannot be (not JSON, or too large to share). */
export function factText(value: unknown): string | null {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return null;
  }
  return text !== undefined && Buffer.byteLength(text, 'utf8') <= SHARED_FACT_MOST_BYTES ? text : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Longest member id and license the tables hold (VARCHAR(191)); longer ones are not shared (none is near it). */
export const LONGEST_NAME = 191;

/** Whether a member id or license can be written to the shared tables. */
export function isStorableName(name: string): boolean {
  return name.length > 0 && name.length <= LONGEST_NAME;
}

/** The most rows one page reads (oxmysql warns from 1,000). */
export function pageSize(limit: number): number {
  return Math.min(999, Math.max(1, Math.floor(limit)));
}

/** Orders member ids as the tables' binary collation does: by their UTF-8 bytes. */
export function compareMemberIds(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
