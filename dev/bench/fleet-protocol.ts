import type { BenchPlayer } from './population';

/** The argument that makes the bench process a fleet server (a child the fleet scenario forks). */
export const FLEET_SERVER_FLAG = '--bench-fleet-server';

/** A player a fleet server connects, with the departments the service holds for them (the truth). */
export interface FleetPlayer extends BenchPlayer {
  departments: number | null;
}

/** Parent → fleet server. */
export type ToFleetServer =
  | {
      kind: 'start';
      index: number;
      url: string;
      apiKey: string;
      config: Record<string, unknown>;
      /** oxmysql's connection string: the server starts oxmysql on it before roster, as server.cfg ensures it first. */
      database?: string;
    }
  | {
      kind: 'storm';
      players: FleetPlayer[];
      /** Epoch ms when this server's first player connects; the rest follow evenly over `spanMs`. */
      beginAt: number;
      spanMs: number;
      giveUpMs: number;
    }
  /** Every player leaves (and the probe forgets them), so the same players can join again. */
  | { kind: 'drop' }
  /** Whether the mirror completed its first read (and was not turned off since). */
  | { kind: 'holds' }
  /** The roster resource's log lines that contain `text`. */
  | { kind: 'lines'; text: string }
  /** One player connects now; admitted, they leave at once (so they can try again). */
  | { kind: 'join'; player: BenchPlayer }
  /** `roster status`, as an owner types it in the server console. */
  | { kind: 'status' }
  | { kind: 'stop' };

/** One decision as a fleet server saw it; times are epoch ms (`performance.timeOrigin` based). */
export interface FleetSample {
  player: FleetPlayer;
  connectAt: number;
  decidedAt: number | null;
  admitted: boolean;
  id: number | null;
  /** When a second resource first saw the player's data complete (null: never), and whether at playerJoining. */
  completeAt: number | null;
  completeAtJoining: boolean;
}

/** Fleet server → parent. */
export type FromFleetServer =
  | { kind: 'connected'; at: number }
  | { kind: 'mirror'; at: number; held: number }
  | { kind: 'storm-done'; samples: FleetSample[] }
  | { kind: 'dropped'; players: number }
  | { kind: 'holds'; holds: boolean }
  | { kind: 'lines'; lines: string[] }
  | { kind: 'joined'; admitted: boolean; connectAt: number; decidedAt: number }
  | { kind: 'status'; lines: string[] }
  | { kind: 'stopped' }
  | { kind: 'failed'; message: string };

/** Epoch ms with sub-millisecond precision, comparable across processes on one machine. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}
