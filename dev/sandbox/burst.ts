import type { FxServer } from '../emulator';
import type { MockRoster } from '../mock-roster/server';

export interface BurstResult {
  admitted: number;
  refused: number;
  /** Members among them whose status is ACTIVE: the ones the gate should admit. */
  expectedAdmitted: number;
  /** Requests the mock received while the burst was being decided. */
  requests: number;
  byEndpoint: Record<string, number>;
  slowestMs: number;
  refusalReasons: Map<string, number>;
}

/** Connects `count` members at once (members from index `first` on) and measures the gate. */
export async function connectBurst(
  server: FxServer,
  mock: MockRoster,
  first: number,
  count: number,
): Promise<BurstResult> {
  const members = mock.data.members.slice(first, first + count);
  const before = mock.counters.byEndpoint();
  const totalBefore = mock.counters.total;
  const started = performance.now();
  const waits = await Promise.all(
    members.map(async (member, index) => {
      const connection = server.connectPlayer({
        name: `Burst${String(index + 1).padStart(2, '0')}`,
        identifiers: [member.gameLicense, `ip:10.0.0.${index + 1}`],
      });
      const decision = await connection.decision;
      return { decision, waitedMs: performance.now() - started };
    }),
  );
  const after = mock.counters.byEndpoint();
  const byEndpoint: Record<string, number> = {};
  for (const [endpoint, n] of Object.entries(after)) {
    const delta = n - (before[endpoint] ?? 0);
    if (delta > 0) byEndpoint[endpoint] = delta;
  }
  const refusalReasons = new Map<string, number>();
  for (const { decision } of waits) {
    if (!decision.admitted)
      refusalReasons.set(decision.reason, (refusalReasons.get(decision.reason) ?? 0) + 1);
  }
  const admitted = waits.filter((w) => w.decision.admitted).length;
  return {
    admitted,
    refused: waits.length - admitted,
    expectedAdmitted: members.filter((m) => m.status === 'ACTIVE').length,
    requests: mock.counters.total - totalBefore,
    byEndpoint,
    slowestMs: Math.max(...waits.map((w) => w.waitedMs)),
    refusalReasons,
  };
}
