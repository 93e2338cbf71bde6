/** How long the reader's lease runs, and how often it renews it. */
export const LEASE_MS = 30_000;
export const RENEW_MS = 10_000;
/** How often what changed is written, and the database read for what the others wrote. */
export const WRITE_MS = 500;
/** Writes of `SHARED_PAGE_LIMIT` members the reader makes at most per step (a full read's 2,000 in one). */
export const WRITES_PER_STEP = 8;
export const FOLLOW_MS = 1_000;
/** While sharing is off, how often the database is asked whether it answers again. */
export const RETRY_MS = 5_000;
/**
 * A follower's copy answers joins only while its last read of the database is this recent: a
 * database that stops answering stops the copy deciding before sharing is even turned off.
 */
export const COPY_FRESH_MS = 3_000;
