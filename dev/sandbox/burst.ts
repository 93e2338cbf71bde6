import type { FxServer } from '../emulator';
import type { MockRoster } from '../mock-roster/server';
import { expectThat } from './expectation';

const AUDIT_ENDPOINT = 'GET /api/v1/audit-logs';

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
  /** The admitted players: server id and member id. */
  players: { src: number; memberId: string }[];
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
  const started = performance.now();
  const waits = await Promise.all(
    members.map(async (member, index) => {
      const connection = server.connectPlayer({
        name: `Burst${String(index + 1).padStart(2, '0')}`,
        identifiers: [member.gameLicense, `ip:10.0.0.${index + 1}`],
      });
      const decision = await connection.decision;
      return { decision, memberId: member.id, waitedMs: performance.now() - started };
    }),
  );
  const after = mock.counters.byEndpoint();
  const byEndpoint: Record<string, number> = {};
  for (const [endpoint, n] of Object.entries(after)) {
    const delta = n - (before[endpoint] ?? 0);
    // The audit feed reads on its own clock (`refresh.auditSeconds`), not for the burst.
    if (delta > 0 && endpoint !== AUDIT_ENDPOINT) byEndpoint[endpoint] = delta;
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
    requests: Object.values(byEndpoint).reduce((sum, n) => sum + n, 0),
    byEndpoint,
    slowestMs: Math.max(...waits.map((w) => w.waitedMs)),
    refusalReasons,
    players: waits.flatMap(({ decision, memberId }) =>
      decision.admitted ? [{ src: decision.id, memberId }] : [],
    ),
  };
}

/** The burst as the sandbox shows it: decisions, refusal reasons, requests, the slowest wait. */
export async function runBurstPart(
  server: FxServer,
  mock: MockRoster,
  first: number,
  count: number,
  print: (line: string) => void,
): Promise<BurstResult> {
  print(`-- a burst of ${count} members connecting at once --`);
  const burst = await connectBurst(server, mock, first, count);
  print(
    `burst: ${burst.admitted}/${count} admitted, ${burst.refused} refused (expected ${burst.expectedAdmitted} admitted: the ACTIVE ones)`,
  );
  for (const [reason, n] of burst.refusalReasons) print(`  ${n} x "${reason}"`);
  const endpoints = Object.entries(burst.byEndpoint)
    .map(([endpoint, n]) => `${n} ${endpoint}`)
    .join(', ');
  print(`burst: the mock received ${burst.requests} API request(s) for them (${endpoints || 'none'})`);
  print(`burst: the slowest player waited ${Math.round(burst.slowestMs)} ms for a decision`);
  expectThat(
    burst.admitted === burst.expectedAdmitted,
    `the burst admitted ${burst.admitted}, expected ${burst.expectedAdmitted}`,
  );
  return burst;
}
