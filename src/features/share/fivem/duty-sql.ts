/*
 * The statements of the shared duty sessions; every value a `?` placeholder, the only text built
 * at run time a repeated list of placeholders.
 */
import { NOW_MS } from './store-sql';

export const DUTY_STATE_ROW = `INSERT INTO roster_share_duty_state (key_hash) VALUES (?)
  ON DUPLICATE KEY UPDATE key_hash = key_hash`;

/** One row whether or not the key has one yet: its columns are then null beside the database's time. */
export const DUTY_STATE = `SELECT s.version, s.feed_from, s.feed_after, s.fed_at, n.now
  FROM (SELECT ${NOW_MS} AS now) AS n LEFT JOIN roster_share_duty_state AS s ON s.key_hash = ?`;

/**
 * A write's first statement, under the state row's lock until the commit, so writes commit in
 * version order. A read that began at or before where the shared one reached carries it on; one
 * that began later leaves a gap, and the rows are whole only from its start. `feed_from` is
 * assigned before `feed_after`, so it judges the stored one (MySQL assigns left to right).
 * Values: from, from, after, after, key.
 */
export const CLAIM_DUTY_VERSION = `UPDATE roster_share_duty_state SET version = version + 1,
    feed_from = IF(feed_after IS NOT NULL AND ? <= feed_after, feed_from, ?),
    feed_after = GREATEST(COALESCE(feed_after, ?), ?),
    fed_at = ${NOW_MS}
  WHERE key_hash = ?`;

/** Rows one statement writes: 4 values each. */
export const SESSIONS_PER_STATEMENT = 500;

/** Sessions written under the version the claim took. Values: (id, record, ends_at) per row, then the key. */
export function writeSessions(rows: number): string {
  const given = ['SELECT ? AS given_id, ? AS given_record, ? AS given_ends'];
  for (let i = 1; i < rows; i++) given.push('SELECT ?, ?, ?');
  return `INSERT INTO roster_share_duty (key_hash, session_id, record, ends_at, version)
    SELECT s.key_hash, m.given_id, m.given_record, m.given_ends, s.version
    FROM roster_share_duty_state AS s CROSS JOIN (${given.join(' UNION ALL ')}) AS m
    WHERE s.key_hash = ?
    ON DUPLICATE KEY UPDATE record = VALUES(record), ends_at = VALUES(ends_at), version = VALUES(version)`;
}

/** Sessions that ended before the kept window go. Values: key, the window in ms. */
export const SWEEP_DUTY = `DELETE FROM roster_share_duty WHERE key_hash = ? AND ends_at < ${NOW_MS} - ?`;

export const SESSIONS_SINCE = `SELECT session_id, record, version FROM roster_share_duty
  WHERE key_hash = ? AND (version > ? OR (version = ? AND session_id > ?))
  ORDER BY version, session_id LIMIT ?`;
