import type { RequestLogEntry } from '../mock-http/mock-counters';

/**
 * What a request the mock saw was for, told from its query: a lookup of given players
 * (`gameLicense` / `memberId`), the mirror's members created since its last read
 * (`createdAt.after`), a page of a whole list (the mirror's full read), or anything else by endpoint.
 */
export function requestKind(entry: RequestLogEntry): string {
  const name = entry.endpoint.replace(/^GET \/api\/v1\//, '');
  const query = new URLSearchParams(entry.query);
  if (name === 'members' || name === 'department-assignments') {
    if (query.has('createdAt.after')) return `${name} created since (mirror pass)`;
    if (query.has('gameLicense') || query.has('memberId')) return `${name} by player (lookup, refresh)`;
    if (query.has('page')) return `${name} page (mirror full read)`;
    // A whole list read by another key than page numbers (e.g. its first page, `sort` alone).
    if (query.has('sort')) return `${name} list (mirror full read)`;
  }
  return name;
}

/** Requests by kind, each count divided by `per` (e.g. hours). */
export function countKinds(log: readonly RequestLogEntry[], per = 1): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of log) {
    const kind = requestKind(entry);
    counts[kind] = (counts[kind] ?? 0) + 1 / per;
  }
  return counts;
}

export function countByEndpoint(log: readonly RequestLogEntry[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of log) counts[entry.endpoint] = (counts[entry.endpoint] ?? 0) + 1;
  return counts;
}

/** The most requests of `log` that arrived within any 60 s span. */
export function maxIn60s(log: readonly RequestLogEntry[]): number {
  const times = log.map((e) => e.time).sort((a, b) => a - b);
  let max = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= 60_000) start++;
    max = Math.max(max, end - start + 1);
  }
  return max;
}

/** The requests the mirror sent for itself (its full reads and its passes). */
export function mirrorOwn(log: readonly RequestLogEntry[]): RequestLogEntry[] {
  return log.filter((e) => requestKind(e).includes('(mirror'));
}
