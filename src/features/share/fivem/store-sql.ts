/*
 * The store's statements. Every value is a `?` placeholder; the only text built at run time is
 * a repeated list of placeholders and which state columns a write sets.
 */
import { SCHEMA_NAME } from './store-schema';

/**
 * The database's clock in milliseconds since the epoch, the time servers compare leases by.
 * Counted from UTC_TIMESTAMP, not UNIX_TIMESTAMP(NOW()): that one goes through the session's
 * time zone and is an hour off in the hour a daylight-saving zone repeats.
 */
export const NOW_MS = "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000)";

export const SCHEMA_ROW = `INSERT INTO roster_share_schema (name, version) VALUES ('${SCHEMA_NAME}', 0)
  ON DUPLICATE KEY UPDATE name = name`;
export const SCHEMA_VERSION = `SELECT version FROM roster_share_schema WHERE name = '${SCHEMA_NAME}'`;
/** Moves the version row past a step; never back (another server may have gone further meanwhile). */
export const SCHEMA_STEP_DONE = `UPDATE roster_share_schema SET version = ? WHERE name = '${SCHEMA_NAME}' AND version < ?`;

export const STATE_ROW = `INSERT INTO roster_share_state (key_hash) VALUES (?) ON DUPLICATE KEY UPDATE key_hash = key_hash`;

export const STATE = `SELECT reader, lease_until, version, community, audit_position, full_read_at, complete,
  updated_at, ${NOW_MS} AS now FROM roster_share_state WHERE key_hash = ?`;

/** The holder renews; anyone takes a lease that ran out. The WHERE is judged before the assignments. */
export const LEASE = `UPDATE roster_share_state SET reader = ?, lease_until = ${NOW_MS} + ?
  WHERE key_hash = ? AND (reader = ? OR lease_until <= ${NOW_MS})`;

export const RELEASE = `UPDATE roster_share_state SET reader = NULL, lease_until = 0 WHERE key_hash = ? AND reader = ?`;

/** State columns a reader's write may move with its members. */
export type StateColumn = 'audit_position' | 'full_read_at' | 'complete' | 'community';

/**
 * A write's first statement: the next version, under the state row's lock until the commit, so
 * writes commit in version order. The token marks the row as this transaction's; the reader's
 * write takes it only while its lease runs, judged once, here.
 */
export function claimVersion(columns: readonly StateColumn[], leased: boolean): string {
  const moved = columns.map((column) => `, ${column} = ?`).join('');
  const lease = leased ? ` AND reader = ? AND lease_until > ${NOW_MS}` : '';
  return `UPDATE roster_share_state SET version = version + 1, write_token = ?, updated_at = ${NOW_MS}${moved}
    WHERE key_hash = ?${lease}`;
}

/** Rows one statement writes: 4 values each, well within a packet for records of a few hundred bytes. */
export const MEMBERS_PER_STATEMENT = 500;

/**
 * Members written under the version the first statement claimed, only while the state row
 * carries this write's token. Of two reads of one member the newer stays; an older one changes
 * nothing, not even the row's version. `read_at` is assigned last: MySQL assigns left to right,
 * so the conditions before it still see the stored one (and with MariaDB's
 * SIMULTANEOUS_ASSIGNMENT they all do anyway).
 */
export function writeMembers(rows: number): string {
  const given = ['SELECT ? AS given_id, ? AS given_license, ? AS given_record, ? AS given_read_at'];
  for (let i = 1; i < rows; i++) given.push('SELECT ?, ?, ?, ?');
  const newer = 'VALUES(read_at) >= roster_share_members.read_at';
  return `INSERT INTO roster_share_members (key_hash, member_id, license, record, read_at, version)
    SELECT s.key_hash, m.given_id, m.given_license, m.given_record, m.given_read_at, s.version
    FROM roster_share_state AS s CROSS JOIN (${given.join(' UNION ALL ')}) AS m
    WHERE s.key_hash = ? AND s.write_token = ?
    ON DUPLICATE KEY UPDATE
      license = IF(${newer}, COALESCE(VALUES(license), roster_share_members.license), roster_share_members.license),
      record = IF(${newer}, VALUES(record), roster_share_members.record),
      version = IF(${newer}, VALUES(version), roster_share_members.version),
      read_at = GREATEST(roster_share_members.read_at, VALUES(read_at))`;
}

/** The version this write got, kept under its token for the read after the commit. */
export const NOTE_WRITE = `INSERT INTO roster_share_writes (token, key_hash, version, written_at)
  SELECT write_token, key_hash, version, ${NOW_MS} FROM roster_share_state WHERE key_hash = ? AND write_token = ?`;

export const WRITTEN_VERSION = `SELECT version FROM roster_share_writes WHERE token = ?`;

export const MEMBERS_SINCE = `SELECT member_id, license, record, read_at, version FROM roster_share_members
  WHERE key_hash = ? AND (version > ? OR (version = ? AND member_id > ?)) AND version <= ?
  ORDER BY version, member_id LIMIT ?`;

/**
 * Adds to one window's count and answers the count afterwards: `LAST_INSERT_ID(expr)` hands the
 * updated count back as the statement's insert id (0 when the row is new: the count is then what
 * was added). One statement, so servers adding at once never lose a request.
 */
export function countWindow(period: 'm' | 'd', ms: number): string {
  return `INSERT INTO roster_share_budget (key_hash, period, window_start, requests)
    VALUES (?, '${period}', ${NOW_MS} DIV ${ms} * ${ms}, ?)
    ON DUPLICATE KEY UPDATE requests = LAST_INSERT_ID(requests + VALUES(requests))`;
}

export function budgetNow(minuteMs: number, dayMs: number): string {
  return `SELECT period, requests FROM roster_share_budget WHERE key_hash = ?
    AND ((period = 'm' AND window_start = ${NOW_MS} DIV ${minuteMs} * ${minuteMs})
      OR (period = 'd' AND window_start = ${NOW_MS} DIV ${dayMs} * ${dayMs}))`;
}

/** Adds to a server's count in the current short window. */
export function paceAdd(windowMs: number): string {
  return `INSERT INTO roster_share_pace (key_hash, window_start, server, requests)
    VALUES (?, ${NOW_MS} DIV ${windowMs} * ${windowMs}, ?, ?)
    ON DUPLICATE KEY UPDATE requests = requests + VALUES(requests)`;
}

/** Each server's requests in the windows that reach into the last minute, and since its last window. */
export function paceRead(minuteMs: number): string {
  return `SELECT server, CAST(SUM(requests) AS SIGNED) AS requests,
    CAST(${NOW_MS} - MAX(window_start) AS SIGNED) AS idle FROM roster_share_pace
    WHERE key_hash = ? AND window_start > ${NOW_MS} - ${minuteMs} GROUP BY server`;
}

/** Windows and write notes long past: deleted now and then. */
export const SWEEP_BUDGET = `DELETE FROM roster_share_budget WHERE key_hash = ?
  AND ((period = 'm' AND window_start < ${NOW_MS} - ?) OR (period = 'd' AND window_start < ${NOW_MS} - ?))`;
export const SWEEP_PACE = `DELETE FROM roster_share_pace WHERE key_hash = ? AND window_start < ${NOW_MS} - ?`;
export const SWEEP_WRITES = `DELETE FROM roster_share_writes WHERE key_hash = ? AND written_at < ${NOW_MS} - ?`;

export const FACT = `SELECT value, ${NOW_MS} - read_at AS age FROM roster_share_facts WHERE key_hash = ? AND name = ?`;
export const PUT_FACT = `INSERT INTO roster_share_facts (key_hash, name, value, read_at) VALUES (?, ?, ?, ${NOW_MS})
  ON DUPLICATE KEY UPDATE value = VALUES(value), read_at = VALUES(read_at)`;
