import type { GateKind } from './gate-servers';
import type { Progress } from './progress';
import { joinStormScenario, type StormResult } from './storm-scenario';

/** The join storm split over two emulated servers, each with its own gate, on one key. */
export function twoServersOneKey(kind: GateKind, progress?: Progress): Promise<StormResult> {
  return joinStormScenario(kind, {
    players: 1_000,
    spanMs: 10_000,
    servers: 2,
    ...(progress ? { progress } : {}),
    label: `two servers, one key, ${kind}`,
  });
}
