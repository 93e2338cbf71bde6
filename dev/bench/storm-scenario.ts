import { startMockRoster } from '../mock-roster/server';
import { type GateKind, rosterReady, sleep, startGateServer } from './gate-servers';
import { type JoinSample, runJoinStorm, type StormSummary, summarizeStorm } from './join-storm';
import { choosePlayers } from './population';
import type { Progress } from './progress';

export const SERVICE_LATENCY_MS = 50;

export interface StormScenarioOptions {
  players: number;
  spanMs: number;
  /** Emulated servers sharing one key; players are split round-robin. */
  servers?: number;
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
    ] as const,
  };
}

export interface StormResult {
  summary: StormSummary;
  samples: JoinSample[];
  maxInRolling60s: number;
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
  const mock = await startMockRoster({ port: 0, members: 2_000, seed: 1, now: () => Date.now() + shift });
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
    // Let requests still in flight land in the log before counting.
    await sleep(SERVICE_LATENCY_MS * 4);
    const summary = summarizeStorm(samples, mock, mark, beganAt + shift);
    return { summary, samples, maxInRolling60s: mock.counters.maxInRolling60s(mock.keyId('full')) };
  } finally {
    for (const gate of gates) gate.close();
    await mock.close();
  }
}
