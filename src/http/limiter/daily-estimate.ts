import type { KeyDayReport } from './key-day';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Departments and ranks are read again every 30 minutes: two requests. */
const CATALOG_PER_DAY = 2 * 48;
/** A member page and an assignment page per 100 members: a full read of the roster. */
const PAGE = 100;
/** With the audit feed on time, everyone online is re-read every this many refresh intervals. */
const SAFETY_NET_INTERVALS = 12;
/** Less than this counted, and the pace of joins and changes says too little. */
const SHORTEST_MEASURE_MS = 15 * 60_000;
/** The others are counted as another server's worth only from this share of our own use. */
const OTHERS_NOTICED = 0.1;

/** What sets this server's daily cost: its settings and what it holds now. */
export interface ServerRates {
  /** `refresh.auditSeconds` while the audit feed runs; 0 when it does not. */
  auditSeconds: number;
  /** The mirror while it is on: `mirror.resyncMinutes`, the members held, and whether joins are decided from it. */
  mirror: { resyncMinutes: number; held: number; deciding: boolean } | null;
  /** `refresh.intervalSeconds`; 0 when the periodic refresh is off. */
  refreshSeconds: number;
  /** How often the duty sessions of the members online are read (`refresh.intervalSeconds`); 0 when they are not. */
  dutySeconds: number;
  /** The audit feed reads changes on time: the periodic refresh is only a safety net. */
  feedHealthy: boolean;
  online: number;
}

/** This server's requests a day, by what sends them. */
export interface DailyCost {
  /** Reads of the audit log, one every `refresh.auditSeconds`. */
  audit: number;
  /** Full re-reads of the roster by the mirror, every `mirror.resyncMinutes`. */
  fullReads: number;
  /** Departments and ranks. */
  catalog: number;
  /** Re-reads of every player online. */
  refreshes: number;
  /** Duty sessions of the members online: a request per hundred online each time. */
  duty: number;
  /**
   * Joins, rank changes and the members the audit log named, at the pace counted (what the lanes
   * sent beyond the audit reads and refreshes); null until enough is counted.
   */
  measured: number | null;
  /** How long the measured pace was counted over (ms, restarts included). */
  measuredOverMs: number;
  total: number;
}

/** The key's day as the servers on it spend it. */
export interface KeyOutlook {
  cost: DailyCost;
  /**
   * How many of this server the key carries (the key's requests of the rolling day, every server
   * counted, over this server's own); 1 when the service's counts show no other server.
   */
  serversWorth: number;
  /** The key's requests a day at that pace. */
  keyPerDay: number;
  /** The day's ceiling: the service's day window's, else `rateLimit.perDay`; null for none. */
  ceiling: number | null;
  /** The key's requests so far today: the service's count when it sent its day, else estimated; null when unknown. */
  usedToday: number | null;
  /** Whether `usedToday` is the service's own count. */
  fromService: boolean;
  /** When the key's day resets: the service's day window's reset, else midnight UTC. */
  dayEndsAt: number;
  /** When the key's day would run out at that pace, when before `dayEndsAt`. */
  runsOutAt: number | null;
}

/**
 * This server's daily cost from its own rates: the periodic work from its settings and what it
 * holds (audit reads, the mirror's full re-reads, departments and ranks, refreshes and duty
 * sessions of the players online), and the rest (joins, rank changes, members the audit log named) at the pace counted.
 */
export function dailyCost(rates: ServerRates, day: KeyDayReport, now: number): DailyCost {
  const audit = rates.auditSeconds > 0 ? Math.round(86_400 / rates.auditSeconds) : 0;
  const mirror = rates.mirror;
  const fullReads = mirror ? Math.round((1440 / mirror.resyncMinutes) * fullReadCost(mirror.held)) : 0;
  const refreshes = refreshesPerDay(rates);
  const duty =
    rates.dutySeconds > 0 && rates.online > 0
      ? Math.round((86_400 / rates.dutySeconds) * Math.ceil(rates.online / PAGE))
      : 0;
  const overMs = day.countedSince === null ? 0 : Math.min(DAY_MS, now - day.countedSince);
  let measured: number | null = null;
  if (overMs >= SHORTEST_MEASURE_MS) {
    const counted = day.own.join + day.own.write + day.own.refresh;
    const perDay = (counted * DAY_MS) / overMs;
    measured = Math.max(0, Math.round(perDay - audit - refreshes));
  }
  return {
    audit,
    fullReads,
    catalog: CATALOG_PER_DAY,
    refreshes,
    duty,
    measured,
    measuredOverMs: overMs,
    total: audit + fullReads + CATALOG_PER_DAY + refreshes + duty + (measured ?? 0),
  };
}

/** What the key's day comes to when every server on it spends as the last hour's counts show. */
export function keyOutlook(cost: DailyCost, day: KeyDayReport, now: number): KeyOutlook {
  const serversWorth = worthOf(day, now);
  const keyPerDay = Math.round(cost.total * serversWorth);
  const service = day.serviceDay;
  const ceiling = service
    ? day.perDay === null
      ? service.limit
      : Math.min(day.perDay, service.limit)
    : day.perDay;
  const dayEndsAt = day.today.since + DAY_MS;
  const usedToday = service ? service.limit - service.remaining : todaySoFar(day, keyPerDay);
  let runsOutAt: number | null = null;
  if (ceiling !== null && usedToday !== null && keyPerDay > 0) {
    const at = now + (Math.max(0, ceiling - usedToday) * DAY_MS) / keyPerDay;
    if (at < dayEndsAt) runsOutAt = at;
  }
  return {
    cost,
    serversWorth,
    keyPerDay,
    ceiling,
    usedToday,
    fromService: service !== null,
    dayEndsAt,
    runsOutAt,
  };
}

/**
 * The key's requests since the day began, as counted: ours, and the others' the minute windows
 * showed. The part of the day before our count began (a first start today) is taken at the key's pace.
 */
function todaySoFar(day: KeyDayReport, keyPerDay: number): number | null {
  if (day.countedSince === null) return null;
  const uncounted = Math.max(0, day.countedSince - day.today.since);
  return Math.round(day.today.own + (day.today.others ?? 0) + (keyPerDay * uncounted) / DAY_MS);
}

/**
 * The key's requests over this server's own: over the rolling day once an hour of it is counted
 * (the others' requests are seen a minute window at a time, and many windows make a steadier
 * figure), else over this run's pace. 1 while the others' part is too small to tell from the
 * counts' noise.
 */
function worthOf(day: KeyDayReport, now: number): number {
  const ownDay = day.own.join + day.own.write + day.own.refresh + day.own.background;
  const counted =
    day.countedSince !== null && now - day.countedSince >= HOUR_MS && day.others !== null && ownDay > 0;
  const own = counted ? ownDay : day.pace.own;
  const others = counted ? day.others : day.pace.others;
  if (own === null || others === null || own <= 0 || others < own * OTHERS_NOTICED) return 1;
  return (own + others) / own;
}

function fullReadCost(held: number): number {
  // Members and their assignments (about one each), a page per hundred, and at least one each.
  return 2 * Math.max(1, Math.ceil(held / PAGE));
}

function refreshesPerDay(rates: ServerRates): number {
  if (rates.refreshSeconds <= 0 || rates.online === 0) return 0;
  // The mirror's full reads are the safety net while it decides joins: no refresh runs.
  if (rates.mirror?.deciding && rates.feedHealthy) return 0;
  const every = rates.feedHealthy ? rates.refreshSeconds * SAFETY_NET_INTERVALS : rates.refreshSeconds;
  return Math.round((86_400 / every) * 2 * Math.ceil(rates.online / PAGE));
}
