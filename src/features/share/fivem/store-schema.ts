/*
 * The shared tables, for MariaDB 10.6+ and MySQL 8. Identifiers and hashes are ASCII with a
 * binary collation, text utf8mb4 with utf8mb4_bin (both servers have it; their defaults differ),
 * so ids compare byte for byte on every server. Times are milliseconds since the epoch in BIGINT.
 */

/** The row of `roster_share_schema` that says which step the tables are at. */
export const SCHEMA_NAME = 'roster_share';

/** One step of the tables' history: statements run once, in order, when the tables are below `version`. */
export interface SchemaStep {
  version: number;
  statements: readonly string[];
}

const ASCII = 'CHARACTER SET ascii COLLATE ascii_bin';
const TABLE_OPTIONS = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin';

export const CREATE_SCHEMA_TABLE = `CREATE TABLE IF NOT EXISTS roster_share_schema (
  name VARCHAR(64) ${ASCII} NOT NULL,
  version INT NOT NULL,
  PRIMARY KEY (name)
) ${TABLE_OPTIONS}`;

/**
 * The first step. A later release appends steps (an `ALTER TABLE` runs on MySQL 8 too only
 * without `IF NOT EXISTS`, so a step runs once: the version row moves past it).
 */
export const SHARE_SCHEMA: readonly SchemaStep[] = [
  {
    version: 1,
    statements: [
      // One row per key: the lease, the roster's version and what moves with it. `write_token`
      // names the transaction that holds the row, so its other statements write only while it does.
      `CREATE TABLE IF NOT EXISTS roster_share_state (
        key_hash CHAR(64) ${ASCII} NOT NULL,
        reader VARCHAR(191) NULL,
        lease_until BIGINT NOT NULL DEFAULT 0,
        version BIGINT NOT NULL DEFAULT 0,
        community TEXT NULL,
        audit_position TEXT NULL,
        full_read_at BIGINT NULL,
        complete TINYINT(1) NOT NULL DEFAULT 0,
        write_token CHAR(32) ${ASCII} NULL,
        updated_at BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (key_hash)
      ) ${TABLE_OPTIONS}`,
      // A member as last read; `record` NULL once no longer held. Followers read by version.
      `CREATE TABLE IF NOT EXISTS roster_share_members (
        key_hash CHAR(64) ${ASCII} NOT NULL,
        member_id VARCHAR(191) NOT NULL,
        license VARCHAR(191) NULL,
        record MEDIUMTEXT NULL,
        read_at BIGINT NOT NULL,
        version BIGINT NOT NULL,
        PRIMARY KEY (key_hash, member_id),
        KEY roster_share_members_version (key_hash, version, member_id)
      ) ${TABLE_OPTIONS}`,
      // Requests to the service per key, per minute ('m') and UTC day ('d') window.
      `CREATE TABLE IF NOT EXISTS roster_share_budget (
        key_hash CHAR(64) ${ASCII} NOT NULL,
        period CHAR(1) ${ASCII} NOT NULL,
        window_start BIGINT NOT NULL,
        requests INT UNSIGNED NOT NULL DEFAULT 0,
        PRIMARY KEY (key_hash, period, window_start)
      ) ${TABLE_OPTIONS}`,
      // Which version each write got: oxmysql's transaction answers only true or false.
      `CREATE TABLE IF NOT EXISTS roster_share_writes (
        token CHAR(32) ${ASCII} NOT NULL,
        key_hash CHAR(64) ${ASCII} NOT NULL,
        version BIGINT NOT NULL,
        written_at BIGINT NOT NULL,
        PRIMARY KEY (token),
        KEY roster_share_writes_age (key_hash, written_at)
      ) ${TABLE_OPTIONS}`,
    ],
  },
  {
    version: 2,
    statements: [
      // What a server read from the service that the others need at start (the key's identity,
      // departments and ranks), as JSON, with when it was written (database time).
      `CREATE TABLE IF NOT EXISTS roster_share_facts (
        key_hash CHAR(64) ${ASCII} NOT NULL,
        name VARCHAR(64) ${ASCII} NOT NULL,
        value MEDIUMTEXT NOT NULL,
        read_at BIGINT NOT NULL,
        PRIMARY KEY (key_hash, name)
      ) ${TABLE_OPTIONS}`,
    ],
  },
  {
    version: 3,
    statements: [
      // Where the shared read of the community's duty sessions stands, per key.
      `CREATE TABLE IF NOT EXISTS roster_share_duty_state (
        key_hash CHAR(64) ${ASCII} NOT NULL,
        version BIGINT NOT NULL DEFAULT 0,
        feed_from BIGINT NULL,
        feed_after BIGINT NULL,
        fed_at BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (key_hash)
      ) ${TABLE_OPTIONS}`,
      // The sessions it listed; followers read by version. Gone once ended before the 30 days kept.
      `CREATE TABLE IF NOT EXISTS roster_share_duty (
        key_hash CHAR(64) ${ASCII} NOT NULL,
        session_id VARCHAR(191) NOT NULL,
        record TEXT NOT NULL,
        ends_at BIGINT NOT NULL,
        version BIGINT NOT NULL,
        PRIMARY KEY (key_hash, session_id),
        KEY roster_share_duty_version (key_hash, version, session_id),
        KEY roster_share_duty_ends (key_hash, ends_at)
      ) ${TABLE_OPTIONS}`,
    ],
  },
  {
    version: 4,
    statements: [
      // Each server's requests per key in one-second windows, by the server's run: the key's last
      // minute as it rolls, and how many servers are sending on it.
      `CREATE TABLE IF NOT EXISTS roster_share_pace (
        key_hash CHAR(64) ${ASCII} NOT NULL,
        window_start BIGINT NOT NULL,
        server VARCHAR(191) NOT NULL,
        requests INT UNSIGNED NOT NULL DEFAULT 0,
        PRIMARY KEY (key_hash, window_start, server)
      ) ${TABLE_OPTIONS}`,
    ],
  },
];
