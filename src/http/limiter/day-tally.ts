import { LANES, type Lane, perLane } from './lane';

export const DAY_MS = 86_400_000;
/** The tally's grain: fine enough for a day, coarse enough to be saved every minute. */
export const BUCKET_MS = 5 * 60_000;
const MINUTE_MS = 60_000;
const WINDOWS_PER_BUCKET = BUCKET_MS / MINUTE_MS;

interface Bucket {
  start: number;
  /** This server's requests, per lane. */
  own: Record<Lane, number>;
  /**
   * The other servers' requests on the key, as the service's minute windows showed them: each
   * window seen adds what the others had sent in it by our answer, scaled to the whole minute.
   */
  othersScaled: number;
  /** Minute windows seen in this bucket. */
  windowsSeen: number;
}

/** A bucket as saved: `[start, join, write, refresh, background, othersScaled, windowsSeen]`. */
export type SavedBucket = [number, number, number, number, number, number, number];

/**
 * The key's requests over the last 24 h in 5-minute buckets: this server's own, per lane, and the
 * other servers' as the service's counts show them. A bucket is counted until the last request it
 * may hold is a day old, so the day's count errs high, never low. At most 289 buckets.
 */
export class DayTally {
  private readonly buckets: Bucket[] = [];

  /** Counts one of this server's requests. */
  record(lane: Lane, now: number): void {
    this.bucketAt(now).own[lane] += 1;
  }

  /**
   * One minute window seen: the others had sent `others` in its first `spanMs`. A window seen over
   * less than a sixth of it says too little to scale up, and is left out.
   */
  seeOthers(at: number, others: number, spanMs: number): void {
    if (spanMs < MINUTE_MS / 6) return;
    const bucket = this.bucketAt(at);
    bucket.othersScaled += (Math.max(0, others) * MINUTE_MS) / Math.min(spanMs, MINUTE_MS);
    bucket.windowsSeen += 1;
  }

  /** This server's requests in the rolling day. */
  own(now: number): number {
    return this.sum(now, (bucket) => ownOf(bucket));
  }

  /** This server's requests per lane since `from` (within the rolling day). */
  ownByLane(now: number, from = Number.NEGATIVE_INFINITY): Record<Lane, number> {
    this.prune(now);
    const counts = perLane(() => 0);
    for (const bucket of this.buckets) {
      if (bucket.start + BUCKET_MS <= from) continue;
      for (const lane of LANES) counts[lane] += bucket.own[lane];
    }
    return counts;
  }

  /**
   * The other servers' requests since `from` (within the rolling day), from the minute windows
   * seen; null when none was. Buckets with no window seen count nothing: it errs low there.
   */
  others(now: number, from = Number.NEGATIVE_INFINITY): number | null {
    this.prune(now);
    let seen = false;
    let total = 0;
    for (const bucket of this.buckets) {
      if (bucket.start + BUCKET_MS <= from || bucket.windowsSeen === 0) continue;
      seen = true;
      total += othersIn(bucket, now);
    }
    return seen ? total : null;
  }

  /** When the first bucket still counted began; null when nothing is. */
  firstAt(now: number): number | null {
    this.prune(now);
    return this.buckets[0]?.start ?? null;
  }

  /** Milliseconds until this server's own requests in the rolling day are fewer than `limit`. */
  msUntilOwnBelow(limit: number, now: number): number {
    return this.msUntilBelow(limit, now, ownOf);
  }

  /** Milliseconds until the key's requests (own and the others seen) in the rolling day are fewer than `limit`. */
  msUntilKeyBelow(limit: number, now: number): number {
    return this.msUntilBelow(limit, now, (bucket) => ownOf(bucket) + othersIn(bucket, now));
  }

  saved(now: number): SavedBucket[] {
    this.prune(now);
    return this.buckets.map((b) => [
      b.start,
      b.own.join,
      b.own.write,
      b.own.refresh,
      b.own.background,
      round(b.othersScaled),
      b.windowsSeen,
    ]);
  }

  /** Adds what a save held (before this run counted anything, or alongside it). */
  restore(saved: readonly SavedBucket[], now: number): void {
    for (const [start, join, write, refresh, background, othersScaled, windowsSeen] of saved) {
      if (start > now) continue;
      const bucket = this.bucketAt(start);
      bucket.own.join += join;
      bucket.own.write += write;
      bucket.own.refresh += refresh;
      bucket.own.background += background;
      bucket.othersScaled += othersScaled;
      bucket.windowsSeen += windowsSeen;
    }
    this.prune(now);
  }

  private sum(now: number, of: (bucket: Bucket) => number): number {
    this.prune(now);
    let total = 0;
    for (const bucket of this.buckets) total += of(bucket);
    return total;
  }

  private msUntilBelow(limit: number, now: number, of: (bucket: Bucket) => number): number {
    let excess = this.sum(now, of) - limit + 1;
    if (excess <= 0) return 0;
    for (const bucket of this.buckets) {
      excess -= of(bucket);
      if (excess <= 0) return expiry(bucket.start) - now;
    }
    return DAY_MS;
  }

  private bucketAt(at: number): Bucket {
    const start = at - (((at % BUCKET_MS) + BUCKET_MS) % BUCKET_MS);
    let index = this.buckets.length - 1;
    while (index >= 0 && this.buckets[index]!.start > start) index--;
    const found = this.buckets[index];
    if (found?.start === start) return found;
    const bucket: Bucket = { start, own: perLane(() => 0), othersScaled: 0, windowsSeen: 0 };
    this.buckets.splice(index + 1, 0, bucket);
    return bucket;
  }

  private prune(now: number): void {
    let gone = 0;
    while (gone < this.buckets.length && expiry(this.buckets[gone]!.start) <= now) gone++;
    if (gone > 0) this.buckets.splice(0, gone);
  }
}

function ownOf(bucket: Bucket): number {
  return bucket.own.join + bucket.own.write + bucket.own.refresh + bucket.own.background;
}

/** The others' requests in a bucket: the windows seen, averaged, over the minutes it has had by `now`. */
function othersIn(bucket: Bucket, now: number): number {
  if (bucket.windowsSeen === 0) return 0;
  const minutes = Math.min(WINDOWS_PER_BUCKET, Math.max(1, Math.ceil((now - bucket.start) / MINUTE_MS)));
  return (bucket.othersScaled / bucket.windowsSeen) * minutes;
}

function expiry(start: number): number {
  return start + BUCKET_MS - 1 + DAY_MS;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
