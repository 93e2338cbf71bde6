import { startMockRoster } from '../mock-roster/server';
import { FullDataProbe } from './full-data-probe';
import { type GateKind, rosterReady, sleep, startGateServer } from './gate-servers';
import { type JoinSample, percentile, runJoinStorm, type StormSummary, summarizeStorm } from './join-storm';
import { choosePlayers } from './population';
import type { Progress } from './progress';

export const SERVICE_LATENCY_MS = 50;

export interface StormScenarioOptions {
  players: number;
  spanMs: number;
  /** Emulated servers sharing one key; players are split round-robin. */
  servers?: number;
  /** Members the mock is seeded with (default 2,000). */
  members?: number;
  progress?: Progress;
  label?: string;
  /**
   * roster only: 'on' grants roster principals (permissions.enabled with the two ACL lines and an
   * owner's ACE on a rank), 'off' sets permissions.enabled false; unset keeps the defaults.
   */
  permissions?: 'on' | 'off';
}

/** What the storm's roster server gets for `permissions`. */
function permissionSetup(mode: 'on' | 'off' | undefined) {
  if (mode === undefined) return {};
  if (mode === 'off') return { config: { permissions: { enabled: false } } };
  return {
    config: { permissions: { enabled: true } },
    aces: [
      ['resource.roster', 'command.add_principal', 'allow'],
      ['resource.roster', 'command.remove_principal', 'allow'],
      ['roster.lspd.sergeant', 'command.spikestrip', 'allow'],
      ['roster.member', 'bench.member', 'allow'],
    ] as const,
  };
}

export interface StormResult {
  summary: StormSummary;
  samples: JoinSample[];
  maxInRolling60s: number;
  /** The resource only: when admitted players' data (every department) was complete. */
  fullData?: FullDataSummary;
  /** With permissions 'on': admitted players, and how many hold roster.member once the storm is over. */
  principals?: { admitted: number; holding: number };
}

export interface FullDataSummary {
  admitted: number;
  /** Admitted players whose data was complete in a second resource's playerJoining handler. */
  completeAtJoining: number;
  /** Admitted players still without complete data 1 s after the storm's last decision. */
  incompleteAfterLastDecision1s: number;
  /** Requests from the storm's first connection until every admitted player's data was complete. */
  requestsUntilComplete: number;
  /** Connect → complete data, p99 and max over admitted players (never complete: Infinity). */
  p99ToCompleteMs: number;
  maxToCompleteMs: number;
}

/**
 * A fresh mock roster (120/min, 50 ms per answer) and `servers` emulated FXServers each running
 * one gate, all on the same key; then every player connects once within `spanMs`.
 */
export async function joinStormScenario(kind: GateKind, options: StormScenarioOptions): Promise<StormResult> {
  // The mock counts fixed calendar minutes. The naive gate has no limiter, so what it gets through
  // depends on where the storm falls in that minute: its mock's clock is moved forward (once, before
  // the storm) so the storm starts a window, every run alike. The resource keeps to a rolling window
  // of its own and reads the service's reset times, so its mock keeps the true time.
  let shift = 0;
  const mock = await startMockRoster({
    port: 0,
    members: options.members ?? 2_000,
    seed: 1,
    now: () => Date.now() + shift,
  });
  mock.faults.latency(SERVICE_LATENCY_MS);
  const gates = await Promise.all(
    Array.from({ length: options.servers ?? 1 }, () =>
      startGateServer(kind, mock, kind === 'roster' ? permissionSetup(options.permissions) : {}),
    ),
  );
  try {
    for (const gate of gates) await rosterReady(gate, mock);
    // A server that has been up a little while: the start-up requests are behind it.
    if (kind === 'roster') await sleep(3_000);
    const probe =
      kind === 'roster'
        ? new FullDataProbe(
            gates.map((g) => g.server),
            mock,
          )
        : null;
    const players = choosePlayers(mock.data, options.players);
    if (kind === 'naive') shift += 60_000 - ((Date.now() + shift) % 60_000);
    const mark = mock.counters.log.length;
    const label = options.label ?? `${kind} join storm`;
    const { samples, beganAt } = await runJoinStorm(
      gates.map((g) => g.server),
      players,
      {
        spanMs: options.spanMs,
        onProgress: (decided, total) => options.progress?.update(`${label}: ${decided}/${total} decided`),
      },
    );
    const fullData = probe ? await fullDataOf(probe, samples, mock, mark) : undefined;
    const principals =
      options.permissions === 'on'
        ? principalsHeld(
            gates.map((g) => g.server),
            samples,
          )
        : undefined;
    // Let requests still in flight land in the log before counting.
    await sleep(SERVICE_LATENCY_MS * 4);
    const summary = summarizeStorm(samples, mock, mark, beganAt + shift);
    return {
      summary,
      samples,
      maxInRolling60s: mock.counters.maxInRolling60s(mock.keyId('full')),
      ...(fullData ? { fullData } : {}),
      ...(principals ? { principals } : {}),
    };
  } finally {
    for (const gate of gates) gate.close();
    await mock.close();
  }
}

/** Waits (up to 20 s) until every admitted player's data is complete, then sums it up. */
async function fullDataOf(
  probe: FullDataProbe,
  samples: readonly JoinSample[],
  mock: Awaited<ReturnType<typeof startMockRoster>>,
  mark: number,
): Promise<FullDataSummary> {
  const admitted = samples.filter((s) => s.admitted && s.id !== null);
  await probe.waitForAll(
    admitted.map((s) => ({ server: s.server, id: s.id!, license: s.player.license })),
    20_000,
  );
  const perfToEpoch = Date.now() - performance.now();
  const lastDecision = Math.max(...samples.map((s) => s.decidedAt ?? 0));
  const toComplete: number[] = [];
  let incomplete1s = 0;
  let lastComplete = 0;
  for (const sample of admitted) {
    const at = probe.completeAt(sample.player.license);
    if (at === null || at > lastDecision + 1000) incomplete1s++;
    toComplete.push(at === null ? Number.POSITIVE_INFINITY : at - sample.connectAt);
    lastComplete = Math.max(lastComplete, at ?? Number.POSITIVE_INFINITY);
  }
  toComplete.sort((a, b) => a - b);
  const untilEpoch = perfToEpoch + lastComplete;
  return {
    admitted: admitted.length,
    completeAtJoining: admitted.filter((s) => probe.completeAtJoining(s.player.license)).length,
    incompleteAfterLastDecision1s: incomplete1s,
    requestsUntilComplete: Number.isFinite(untilEpoch)
      ? mock.counters.log.slice(mark).filter((e) => e.time <= untilEpoch).length
      : Number.POSITIVE_INFINITY,
    p99ToCompleteMs: percentile(toComplete, 0.99),
    maxToCompleteMs: toComplete.at(-1) ?? 0,
  };
}

/** Admitted players who hold roster.member (seen as an owner's ACE on it) in their server's ACL. */
function principalsHeld(
  servers: readonly { aces: { allowed(principals: readonly string[], object: string): boolean } }[],
  samples: readonly JoinSample[],
): { admitted: number; holding: number } {
  const admitted = samples.filter((s) => s.admitted && s.id !== null);
  const holding = admitted.filter((s) =>
    servers[s.server]?.aces.allowed([`identifier.${s.player.license}`], 'bench.member'),
  ).length;
  return { admitted: admitted.length, holding };
}
