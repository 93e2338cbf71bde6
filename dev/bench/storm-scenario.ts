import { startMockRoster } from '../mock-roster/server';
import { placements, startConnectQueue } from '../stand-ins/connect-queue';
import { departmentsInMock, FullDataProbe } from './full-data-probe';
import { type FullDataSummary, summarizeFullData } from './full-data-summary';
import {
  type GateKind,
  mirrorComplete,
  mirrorHolds,
  rosterReady,
  sleep,
  startGateServer,
} from './gate-servers';
import { type JoinSample, runJoinStorm, type StormSummary, summarizeStorm } from './join-storm';
import { choosePlayers } from './population';
import type { Progress } from './progress';
import { countKinds } from './request-log';

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
  /**
   * roster only: 'off' sets mirror.enabled false (every join looked up, as before the mirror);
   * 'on' keeps the default and starts the storm only once the mirror's first read completed.
   */
  mirror: 'on' | 'off';
  /**
   * roster only: ConnectQueue (the Lua stand-in) runs beside the resource with these
   * `queue.priority` rules, and room for every player (`sv_maxclients`).
   */
  connectQueue?: { priority: readonly Record<string, unknown>[] };
  /**
   * The storm begins the moment the resource has verified its key and loaded departments and
   * ranks: with the mirror on, its first read runs beside the joins (nothing waits for it).
   */
  cold?: boolean;
}

/** What the storm's roster server gets for `permissions` and `mirror`. */
function rosterSetup({ permissions, mirror, connectQueue }: StormScenarioOptions) {
  const config: Record<string, unknown> = mirror === 'off' ? { mirror: { enabled: false } } : {};
  if (connectQueue) {
    config.queue = { priority: connectQueue.priority };
    return { config, convars: { sv_maxclients: '2048', sv_debugqueue: 'false' } };
  }
  if (permissions === undefined) return { config };
  if (permissions === 'off') return { config: { ...config, permissions: { enabled: false } } };
  return {
    config: { ...config, permissions: { enabled: true } },
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
  /** The storm's requests by what they were for (`request-log.ts`): lookups, the mirror's own pages. */
  byKind: Record<string, number>;
  /** The resource only: when admitted players' data (every department) was complete. */
  fullData?: FullDataSummary;
  /** With permissions 'on': admitted players, and how many hold roster.member once the storm is over. */
  principals?: { admitted: number; holding: number };
  /** With the mirror 'on': its first read (not counted in the storm) and whether it held before the storm. */
  mirror?: MirrorBeforeStorm;
  /** With ConnectQueue: players it placed, and how many of them with a priority above 0. */
  queue?: { placed: number; prioritized: number };
}

export interface MirrorBeforeStorm {
  /** Every server's mirror had completed its first read when the first player connected. */
  completeBeforeStorm: boolean;
  /** Requests from the servers' start until the last mirror completed (start-up's own included). */
  firstReadRequests: number;
  /** From the servers' start until the last mirror completed. */
  firstReadMs: number;
}

export type { FullDataSummary };

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
  const startedAt = Date.now();
  const gates = await Promise.all(
    Array.from({ length: options.servers ?? 1 }, () =>
      startGateServer(kind, mock, kind === 'roster' ? rosterSetup(options) : {}),
    ),
  );
  try {
    const queues = options.connectQueue
      ? await Promise.all(gates.map((gate) => startConnectQueue(gate.server)))
      : [];
    for (const gate of gates) await rosterReady(gate, mock);
    let mirror: MirrorBeforeStorm | undefined;
    if (kind === 'roster' && options.mirror === 'on' && !options.cold) {
      let last = startedAt;
      for (const gate of gates) last = Math.max(last, await mirrorComplete(gate));
      mirror = {
        completeBeforeStorm: false,
        firstReadRequests: mock.counters.log.filter((e) => e.time <= last).length,
        firstReadMs: last - startedAt,
      };
    }
    // A server that has been up a little while: the start-up requests are behind it.
    if (kind === 'roster' && !options.cold) await sleep(3_000);
    if (mirror) mirror.completeBeforeStorm = gates.every((g) => mirrorHolds(g.server) !== null);
    const probe =
      kind === 'roster'
        ? new FullDataProbe(
            gates.map((g) => g.server),
            departmentsInMock(mock),
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
    let fullData: FullDataSummary | undefined;
    if (probe) {
      const admitted = samples.filter((s) => s.admitted && s.id !== null);
      await probe.waitForAll(
        admitted.map((s) => ({ server: s.server, id: s.id!, license: s.player.license })),
        20_000,
      );
      const toEpoch = Date.now() - performance.now();
      fullData = summarizeFullData(samples, probe, mock.counters.log.slice(mark), toEpoch);
    }
    const principals =
      options.permissions === 'on'
        ? principalsHeld(
            gates.map((g) => g.server),
            samples,
          )
        : undefined;
    // Let requests still in flight land in the log before counting.
    await sleep(SERVICE_LATENCY_MS * 4);
    const placed = (await Promise.all(queues.map((queue) => placements(queue)))).flat();
    const summary = summarizeStorm(samples, mock, mark, beganAt + shift);
    return {
      summary,
      samples,
      maxInRolling60s: mock.counters.maxInRolling60s(mock.keyId('full')),
      byKind: countKinds(mock.counters.log.slice(mark)),
      ...(fullData ? { fullData } : {}),
      ...(principals ? { principals } : {}),
      ...(mirror ? { mirror } : {}),
      ...(options.connectQueue
        ? { queue: { placed: placed.length, prioritized: placed.filter((p) => p.power > 0).length } }
        : {}),
    };
  } finally {
    for (const gate of gates) gate.close();
    await mock.close();
  }
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
