/** How often rank changes may be made, per acting player and per member changed. */
export interface RankChangeRules {
  /** A player actor's changes are at least this far apart. */
  actorSpacingMs: number;
  /** A player actor's changes in any rolling hour. */
  actorPerHour: number;
  /** Changes of one member in any rolling `targetWindowMs`, whoever the actor. */
  targetPerWindow: number;
  targetWindowMs: number;
}

export const RANK_CHANGE_RULES: RankChangeRules = {
  actorSpacingMs: 3_000,
  actorPerHour: 30,
  targetPerWindow: 4,
  targetWindowMs: 10 * 60_000,
};

const HOUR_MS = 3_600_000;
/** Past this many actors or targets remembered, the ones with nothing left in their window go. */
const SWEEP_AT = 512;

export type LimitRefusal = { kind: 'spacing' | 'hourly' | 'target'; retryInMs: number };

/**
 * Per-actor and per-target budgets of rank changes, so that one supervisor flapping a member's rank
 * neither spends the key's day nor churns that member's record. An actor's attempt counts once it
 * costs a request (the fresh read); a target's once the change is sent. Memory: each list holds
 * at most its window's ceiling, and actors and targets with nothing in their window are swept.
 */
export class RankChangeLimits {
  private readonly actors = new Map<string, number[]>();
  private readonly targets = new Map<string, number[]>();

  constructor(
    private readonly now: () => number,
    private readonly rules: RankChangeRules = RANK_CHANGE_RULES,
  ) {}

  /** Why `actor` (null: the console or a trusted resource, exempt) may not change `target` now. */
  refusal(actor: string | null, target: string): LimitRefusal | null {
    const now = this.now();
    const { rules } = this;
    if (actor !== null) {
      const times = this.recent(this.actors, actor, HOUR_MS, now);
      const last = times.at(-1);
      if (last !== undefined && now - last < rules.actorSpacingMs) {
        return { kind: 'spacing', retryInMs: last + rules.actorSpacingMs - now };
      }
      if (times.length >= rules.actorPerHour) {
        return { kind: 'hourly', retryInMs: times[times.length - rules.actorPerHour]! + HOUR_MS - now };
      }
    }
    const changes = this.recent(this.targets, target, rules.targetWindowMs, now);
    if (changes.length >= rules.targetPerWindow) {
      const oldest = changes[changes.length - rules.targetPerWindow]!;
      return { kind: 'target', retryInMs: oldest + rules.targetWindowMs - now };
    }
    return null;
  }

  /** An attempt by a player actor that costs the key a request. */
  countActor(actor: string): void {
    this.add(this.actors, actor, HOUR_MS);
  }

  /** A change of `target` sent to the service. */
  countTarget(target: string): void {
    this.add(this.targets, target, this.rules.targetWindowMs);
  }

  private add(map: Map<string, number[]>, key: string, windowMs: number): void {
    const now = this.now();
    if (map.size >= SWEEP_AT) {
      for (const [each] of map) this.recent(map, each, windowMs, now);
    }
    const times = this.recent(map, key, windowMs, now);
    times.push(now);
    map.set(key, times);
  }

  /** `key`'s times still inside the window, oldest first (an emptied key is forgotten). */
  private recent(map: Map<string, number[]>, key: string, windowMs: number, now: number): number[] {
    const times = map.get(key) ?? [];
    const from = times.findIndex((at) => now - at < windowMs);
    const kept = from < 0 ? [] : from === 0 ? times : times.slice(from);
    if (kept.length === 0) map.delete(key);
    else if (kept !== times) map.set(key, kept);
    return kept;
  }
}

/** A wait as a person reads it: "3 s", "12 min", "2 h 5 min" (rounded up). */
export function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** A refusal by the per-actor or per-target budget, saying when to try again. */
export function limitText(limit: LimitRefusal, name: string): string {
  const when = waitText(limit.retryInMs);
  switch (limit.kind) {
    case 'spacing':
      return `You changed a rank moments ago; try again in ${when}.`;
    case 'hourly':
      return `You have made ${RANK_CHANGE_RULES.actorPerHour} rank changes in the last hour, the most allowed; try again in ${when}.`;
    case 'target':
      return `${name}'s rank has been changed ${RANK_CHANGE_RULES.targetPerWindow} times in the last 10 minutes, the most allowed; try again in ${when}.`;
  }
}
