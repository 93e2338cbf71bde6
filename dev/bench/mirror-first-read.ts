import { startMockRoster } from '../mock-roster/server';
import { mirrorComplete, mirrorHolds, startGateServer } from './gate-servers';
import { countByEndpoint, maxIn60s, mirrorOwn } from './request-log';
import { SERVICE_LATENCY_MS } from './storm-scenario';

export interface FirstReadResult {
  /** Members and department assignments the mock's community holds. */
  members: number;
  assignments: number;
  /** Members the mirror said it holds once the read completed. */
  held: number;
  /** Every request from the resource's start until the mirror completed (start-up's own included). */
  requests: number;
  byEndpoint: Record<string, number>;
  rateLimited: number;
  /** The most requests on the key within any 60 s of the read (start-up's own included). */
  maxIn60s: number;
  /** The most of the mirror's own requests (its pages) within any 60 s. */
  mirrorMaxIn60s: number;
  /** Resource start → the mirror's "holds N members" line. */
  completeMs: number;
}

/**
 * The mirror's first read of a community of `members` members: the resource (default config,
 * mirror on) starts on an idle server, and everything it sends until the mirror holds the whole
 * roster is counted. No player joins meanwhile.
 */
export async function mirrorFirstRead(members = 5_000): Promise<FirstReadResult> {
  const mock = await startMockRoster({ port: 0, members, seed: 1 });
  mock.faults.latency(SERVICE_LATENCY_MS);
  const startedAt = Date.now();
  const gate = await startGateServer('roster', mock);
  try {
    const completeAt = await mirrorComplete(gate, 600_000);
    const log = mock.counters.log.filter((e) => e.time <= completeAt);
    return {
      members: mock.data.members.length,
      assignments: mock.data.data.assignments.length,
      held: mirrorHolds(gate.server) ?? 0,
      requests: log.length,
      byEndpoint: countByEndpoint(log),
      rateLimited: log.filter((e) => e.status === 429).length,
      maxIn60s: maxIn60s(log),
      mirrorMaxIn60s: maxIn60s(mirrorOwn(log)),
      completeMs: completeAt - startedAt,
    };
  } finally {
    gate.close();
    await mock.close();
  }
}
