import { partialLicense } from '../../platform/partial-license';
import type { DoctorResult } from './doctor-runs';
import type { JoinReason } from './join-reason';
import { DECISION_BUCKETS } from './panel-metrics';
import { panelMirror, panelSharing } from './panel-mirror';
import type { PanelRecorder } from './panel-recorder';
import type { PanelSources } from './panel-sources';
import type { PanelStatus } from './panel-status-shape';

export type { PanelStatus };

/** Players listed at most (the page searches within them). */
export const MAX_LISTED_PLAYERS = 2048;

/** Builds the page's data from the sources and the recorder, on request only. */
export async function buildStatus(
  sources: PanelSources,
  recorder: PanelRecorder,
  doctor: { busy: boolean; last: DoctorResult | null },
  now: number,
): Promise<PanelStatus> {
  const identity = sources.identity();
  const limiter = sources.limiter();
  const cache = sources.cache();
  const answer = recorder.lastAnswer;
  const decisions = recorder.decisions.toArray();

  const counts = new Array<number>(DECISION_BUCKETS.length + 1).fill(0);
  const byReason = new Map<string, { outcome: 'admitted' | 'refused'; reason: JoinReason; count: number }>();
  for (const d of decisions) {
    const bucket = DECISION_BUCKETS.findIndex((bound) => d.ms / 1000 <= bound);
    counts[bucket === -1 ? DECISION_BUCKETS.length : bucket]! += 1;
    const outcome = d.admitted ? 'admitted' : 'refused';
    const key = `${outcome}/${d.reason}`;
    const entry = byReason.get(key) ?? { outcome, reason: d.reason, count: 0 };
    entry.count++;
    byReason.set(key, entry);
  }

  const online: PanelStatus['players']['online'] = [];
  for (const [id, entry] of sources.onlinePlayers()) {
    if (online.length >= MAX_LISTED_PLAYERS) break;
    const member = entry.view?.member ?? null;
    online.push({
      id,
      name: entry.name,
      license: partialLicense(entry.license),
      member: member?.name ?? null,
      status: member?.status ?? null,
      loaded: entry.view !== undefined,
      departments: (member?.departments ?? []).map((d) => ({
        name: d.shortName ?? d.name,
        rank: d.rank?.name ?? null,
        callsign: d.callsign ?? null,
        primary: d.primary,
      })),
      hours7: sources.dutyHours?.(id) ?? null,
      job: sources.jobOf?.(id) ?? null,
    });
  }
  online.sort((a, b) => Number(a.id) - Number(b.id));

  const trainingLines = sources.training();
  return {
    generatedAt: now,
    version: sources.version,
    health: {
      keyVerified: identity !== null,
      community: identity?.community ?? null,
      scopes: identity ? [...identity.scopes] : [],
      serviceReachable: answer === null ? null : answer.status !== null && answer.status < 500,
      keySuspended: limiter.suspended,
      lastError: sources.lastError(),
    },
    rateLimit: {
      perMinute: limiter.perMinute,
      perDay: limiter.perDay,
      remainingThisMinute: limiter.remainingThisMinute,
      remainingToday: limiter.remainingToday,
      pausedUntil: limiter.pausedUntil !== null && limiter.pausedUntil > now ? limiter.pausedUntil : null,
      queued: { ...limiter.queued },
      requestsTotal: recorder.totals.sent,
      throttledTotal: recorder.totals.throttled,
      unansweredTotal: recorder.totals.unanswered,
      perMinuteSeries: recorder.minutes.series(now),
    },
    joins: {
      recent: decisions.reverse().map((d) => ({
        at: d.at,
        player: d.name,
        license: partialLicense(d.license),
        admitted: d.admitted,
        reason: d.reason,
        note: d.note,
        ms: d.ms,
      })),
      histogram: { bounds: DECISION_BUCKETS, counts },
      byReason: [...byReason.values()].sort((a, b) => b.count - a.count),
    },
    players: { onlineCount: sources.onlineCount(), connectingCount: sources.connectingCount(), online },
    cache: { entries: cache.size, hits: cache.hits, misses: cache.misses, hitRate: cache.hitRate },
    mirror: panelMirror(sources.mirror()),
    sharing: panelSharing(sources.sharing?.() ?? null),
    claimedLicenses: panelClaims(sources),
    training: { on: trainingLines !== null, lines: trainingLines === null ? [] : await trainingLines },
    doctor: { running: doctor.busy, last: doctor.last },
  };
}

function panelClaims(sources: PanelSources): PanelStatus['claimedLicenses'] {
  const claims = sources.claimedLicenses?.() ?? { licenses: [], more: false };
  return {
    licenses: claims.licenses.map((claim) => ({
      license: partialLicense(claim.license),
      memberIds: [...claim.memberIds],
      members: claim.members,
      deciding: claim.deciding,
    })),
    more: claims.more,
  };
}
