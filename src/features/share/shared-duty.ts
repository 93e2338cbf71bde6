import { z } from 'zod';
import { Handle } from '../../kernel/handle';

/** A duty session as the server reading the community's sessions listed it (times in ms since the epoch). */
export interface SharedDutySession {
  id: string;
  member: string;
  start: number;
  /** Null while on duty. */
  end: number | null;
  /** The service's `createdAt`. */
  stored: number;
}

/**
 * Where the shared read of what the community stored stands: every session stored after `from`
 * and before `after` (service time) is in the rows, without a gap; `fedAt` is the database's time
 * of the last write, `now` its time as this was read.
 */
export interface SharedDutyState {
  version: number;
  from: number | null;
  after: number | null;
  fedAt: number;
  now: number;
}

/** Where a follower stands in the shared sessions: rows after (version, session id) are new to it. */
export interface SharedDutyCursor {
  version: number;
  id: string;
}

export interface SharedDutyPage {
  sessions: SharedDutySession[];
  unreadable: number;
  next: SharedDutyCursor;
  done: boolean;
}

/**
 * The duty sessions one server read for the whole community, for the other servers on the key:
 * they read them from the database instead of the service. Every call answers within the
 * database's bound or rejects.
 */
export interface DutyShareStore {
  state(): Promise<SharedDutyState>;
  /** What a read of the community listed: every session stored after `from`, up to `after`. */
  publish(read: { from: number; after: number; sessions: readonly SharedDutySession[] }): Promise<void>;
  sessionsSince(after: SharedDutyCursor, limit: number): Promise<SharedDutyPage>;
}

/** What the duty hours feature asks of sharing: whether this server reads for the others, and the rows. */
export interface SharedDutyHandle {
  /** 'reader' while this server holds the lease, 'follower' while another does; null while sharing is off. */
  role(): 'reader' | 'follower' | null;
  store: DutyShareStore;
}

/** Provided by the sharing feature when `share.enabled`. */
export const sharedDutyHandle = new Handle<SharedDutyHandle>('the shared duty sessions');

/*
 * Rows are validated like the service's answers: the community's database can be written by
 * anyone with its password. Whole numbers may come back as strings (BIGINT).
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
const record = z.object({
  member: z.string().min(1).max(191),
  start: z.number().finite(),
  end: z.number().finite().nullable(),
  stored: z.number().finite(),
});
const sessionColumns = z.object({
  session_id: z.string().min(1).max(191),
  record: z.string(),
  version: whole,
});
const stateColumns = z.object({
  version: whole.nullable(),
  feed_from: whole.nullable(),
  feed_after: whole.nullable(),
  fed_at: whole.nullable(),
  now: whole,
});

/** The JSON a session row keeps. */
export function sessionRecord(session: SharedDutySession): string {
  const { member, start, end, stored } = session;
  return JSON.stringify({ member, start, end, stored });
}

/** A session row; null when it does not parse. */
export function sessionRow(columns: unknown): (SharedDutySession & { version: number }) | null {
  const row = sessionColumns.safeParse(columns);
  if (!row.success) return null;
  let json: unknown;
  try {
    json = JSON.parse(row.data.record);
  } catch {
    return null;
  }
  const parsed = record.safeParse(json);
  return parsed.success ? { id: row.data.session_id, ...parsed.data, version: row.data.version } : null;
}

/** The state row; a key without one yet (its columns null) stands at nothing shared. Null when it does not parse. */
export function dutyStateRow(columns: unknown): SharedDutyState | null {
  const parsed = stateColumns.safeParse(columns);
  if (!parsed.success) return null;
  const { version, feed_from, feed_after, fed_at, now } = parsed.data;
  if (version === null) return { version: 0, from: null, after: null, fedAt: 0, now };
  return { version, from: feed_from, after: feed_after, fedAt: fed_at ?? 0, now };
}
