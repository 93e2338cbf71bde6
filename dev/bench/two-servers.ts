import type { GateKind } from './gate-servers';
import type { Progress } from './progress';
import { joinStormScenario, type StormResult } from './storm-scenario';

/** The join storm split over two emulated servers, each with its own gate, on one key (mirror off). */
export function twoServersOneKey(kind: GateKind, progress?: Progress): Promise<StormResult> {
  return joinStormScenario(kind, {
    players: 1_000,
    spanMs: 10_000,
    servers: 2,
    ...(progress ? { progress } : {}),
    label: `two servers, one key, ${kind}`,
    mirror: 'off',
  });
}

/** The hard case: 2 × 2,000 joins in 60 s on one key (4,000 members seeded), the resource only, mirror off. */
export function twoServersLong(progress?: Progress): Promise<StormResult> {
  return joinStormScenario('roster', {
    players: 4_000,
    spanMs: 60_000,
    servers: 2,
    members: 4_000,
    ...(progress ? { progress } : {}),
    label: 'two servers, 2 × 2,000 in 60 s',
    mirror: 'off',
  });
}
