import { startMockRoster } from '../mock-roster/server';
import { departmentsInMock, FullDataProbe } from './full-data-probe';
import { mirrorComplete, mirrorHolds, rosterReady, sleep, startGateServer } from './gate-servers';
import { percentile } from './join-storm';
import { SERVICE_LATENCY_MS } from './storm-scenario';

export interface QuietServerResult {
  mirror: 'on' | 'off';
  /** The first member to connect, the moment the resource starts: connect → decision. */
  firstAfterStartMs: number;
  /** A lone member on a server up a while: connect → decision. */
  loneMs: number;
  /** Members joining one after another (each as the one before is let in): connect → decision. */
  sequence: { p50Ms: number; maxMs: number; count: number };
  /** Of every member admitted here, how many a second resource saw in full at playerJoining. */
  completeAtJoining: number;
  admitted: number;
  /** Requests from the lone join's connection until every later join's data was complete. */
  joinRequests: number;
  /** The same requests by endpoint. */
  joinRequestsByEndpoint: Record<string, number>;
  /** Mirror on: whether its first read had completed before the lone join. */
  mirrorCompleteBeforeJoins?: boolean;
}

/**
 * The resource on a quiet server (50 ms answers, 20 frames a second): the first join right after
 * start, a lone join later, then members one after another. With the mirror on, the lone join
 * waits until the mirror's first read completed (400 members: a few seconds); with it off, every
 * join is looked up.
 */
export async function quietServer(mirror: 'on' | 'off', sequenceLength = 10): Promise<QuietServerResult> {
  const mock = await startMockRoster({ port: 0, members: 400, seed: 1 });
  mock.faults.latency(SERVICE_LATENCY_MS);
  const gate = await startGateServer('roster', mock, {
    deferStart: true,
    ...(mirror === 'off' ? { config: { mirror: { enabled: false } } } : {}),
  });
  // The probe resource starts after the roster, as a script that depends on it would.
  let probe: FullDataProbe | undefined;
  const members = mock.data.members.filter(
    (m) => m.status === 'ACTIVE' && mock.data.assignmentsOf(m.id).length > 0,
  );
  let next = 0;
  const admitted: { server: number; id: number; license: string }[] = [];
  const join = async (): Promise<number> => {
    const member = members[next++]!;
    const started = performance.now();
    const decision = await gate.server.connectPlayer({
      name: member.displayName,
      identifiers: [member.gameLicense],
    }).decision;
    const tookMs = performance.now() - started;
    if (!decision.admitted) throw new Error(`quiet server: ${member.id} was refused`);
    admitted.push({ server: 0, id: decision.id, license: member.gameLicense });
    return tookMs;
  };
  try {
    gate.startGate();
    probe = new FullDataProbe([gate.server], departmentsInMock(mock));
    const firstAfterStartMs = await join();
    await rosterReady(gate, mock);
    if (mirror === 'on') await mirrorComplete(gate, 60_000);
    await sleep(3_000);
    const mirrorCompleteBeforeJoins = mirrorHolds(gate.server) !== null;
    const mark = mock.counters.log.length;
    const loneMs = await join();
    await sleep(1_000);
    const sequence: number[] = [];
    for (let i = 0; i < sequenceLength; i++) sequence.push(await join());
    const watched = probe;
    await watched.waitForAll(admitted, 5_000);
    // Let requests still in flight land in the log before counting.
    await sleep(SERVICE_LATENCY_MS * 4);
    sequence.sort((a, b) => a - b);
    const joinRequestsByEndpoint: Record<string, number> = {};
    for (const entry of mock.counters.log.slice(mark))
      joinRequestsByEndpoint[entry.endpoint] = (joinRequestsByEndpoint[entry.endpoint] ?? 0) + 1;
    return {
      mirror,
      firstAfterStartMs,
      loneMs,
      sequence: { p50Ms: percentile(sequence, 0.5), maxMs: sequence.at(-1) ?? 0, count: sequence.length },
      completeAtJoining: admitted.filter((p) => watched.completeAtJoining(p.license)).length,
      admitted: admitted.length,
      joinRequests: mock.counters.log.length - mark,
      joinRequestsByEndpoint,
      ...(mirror === 'on' ? { mirrorCompleteBeforeJoins } : {}),
    };
  } finally {
    gate.close();
    await mock.close();
  }
}
