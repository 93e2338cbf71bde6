import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MirrorReport } from '../mirror/mirror-state';
import type { JoinReason } from './join-reason';
import type { PanelSources } from './panel-sources';

/** Upper bounds (seconds) of the join decision histogram, shared with the page. */
export const DECISION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30];

export interface RequestTotals {
  sent: number;
  throttled: number;
  unanswered: number;
}

/**
 * The Prometheus view, on its own registry (never prom-client's global one, which other code in
 * the same process could share). Join decisions are counted as they happen; everything else is
 * read from the sources only when `/metrics` is asked for.
 */
export class PanelMetrics {
  readonly registry = new Registry();
  private readonly decisions: Counter<'outcome' | 'reason'>;
  private readonly decisionSeconds: Histogram<'outcome'>;

  constructor(sources: PanelSources, totals: () => RequestTotals) {
    const registers = [this.registry];
    const total = (name: string, help: string, read: () => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    total('roster_requests_total', 'Requests sent to the roster service.', () => totals().sent);
    total(
      'roster_requests_throttled_total',
      'Requests the roster service answered with 429.',
      () => totals().throttled,
    );
    total(
      'roster_requests_unanswered_total',
      'Requests that got no answer (network, timeout).',
      () => totals().unanswered,
    );
    new Gauge({
      name: 'roster_rate_limit_remaining',
      help: 'Requests still allowed by the key: window="minute" (rolling) or "day".',
      labelNames: ['window'],
      registers,
      collect() {
        const state = sources.limiter();
        this.set({ window: 'minute' }, state.remainingThisMinute);
        if (state.remainingToday !== null) this.set({ window: 'day' }, state.remainingToday);
      },
    });
    new Gauge({
      name: 'roster_rate_limit',
      help: 'The ceiling in force: window="minute" or "day".',
      labelNames: ['window'],
      registers,
      collect() {
        const state = sources.limiter();
        this.set({ window: 'minute' }, state.perMinute);
        if (state.perDay !== null) this.set({ window: 'day' }, state.perDay);
      },
    });
    new Gauge({
      name: 'roster_queue_length',
      help: 'Requests waiting for the rate limiter, per lane.',
      labelNames: ['lane'],
      registers,
      collect() {
        for (const [lane, n] of Object.entries(sources.limiter().queued)) this.set({ lane }, n);
      },
    });
    gauge('roster_online_players', 'Players online.', () => sources.onlineCount());
    gauge('roster_connecting_players', 'Players connecting (deferred or downloading).', () =>
      sources.connectingCount(),
    );
    gauge('roster_cache_entries', 'Member records in the cache.', () => sources.cache().size);
    total('roster_cache_hits_total', 'Lookups answered from the cache.', () => sources.cache().hits);
    total('roster_cache_misses_total', 'Lookups the cache could not answer.', () => sources.cache().misses);
    gauge('roster_key_verified', '1 once the key was verified at start.', () => (sources.identity() ? 1 : 0));
    gauge('roster_key_suspended', '1 while the service refuses the key.', () =>
      sources.limiter().suspended === null ? 0 : 1,
    );
    gauge('roster_last_error_timestamp_seconds', 'When the last error happened (0: none).', () =>
      Math.floor((sources.lastError()?.at ?? 0) / 1000),
    );
    // The roster mirror; 0 throughout while none is kept.
    const mirror = (name: string, help: string, read: (report: MirrorReport) => number) =>
      gauge(name, help, () => {
        const report = sources.mirror();
        return report ? read(report) : 0;
      });
    mirror('roster_mirror_members', 'Members the roster mirror holds.', (r) => r.held);
    mirror('roster_mirror_deciding', '1 while joins of members are decided from the mirror.', (r) =>
      r.state.kind === 'up' ? 1 : 0,
    );
    mirror(
      'roster_mirror_last_full_read_timestamp_seconds',
      'When the whole roster was last read (0: not yet).',
      (r) => Math.floor((r.lastFullReadAt ?? 0) / 1000),
    );
    mirror('roster_mirror_requests_today', 'Requests the mirror spent today (UTC).', (r) => r.requestsToday);
    this.decisions = new Counter({
      name: 'roster_join_decisions_total',
      help: 'Join decisions by outcome (admitted, refused) and reason.',
      labelNames: ['outcome', 'reason'],
      registers,
    });
    this.decisionSeconds = new Histogram({
      name: 'roster_join_decision_seconds',
      help: 'How long connecting players waited for a decision.',
      labelNames: ['outcome'],
      buckets: DECISION_BUCKETS,
      registers,
    });
  }

  joinDecided(admitted: boolean, reason: JoinReason, ms: number): void {
    const outcome = admitted ? 'admitted' : 'refused';
    this.decisions.inc({ outcome, reason });
    this.decisionSeconds.observe({ outcome }, ms / 1000);
  }

  /** The Prometheus text exposition. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
