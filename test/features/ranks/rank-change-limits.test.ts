import { describe, expect, it } from 'vitest';
import { RankChangeLimits, waitText } from '../../../src/features/ranks/rank-change-limits';

function limits() {
  let now = 1_000_000;
  const store = new RankChangeLimits(() => now);
  return { store, advance: (ms: number) => (now += ms) };
}

describe('rank change limits', () => {
  it('a player actor: one change every 3 s, each refusal saying how long is left', () => {
    const { store, advance } = limits();
    expect(store.refusal('license:a', 'mem_1')).toBeNull();
    store.countActor('license:a');
    advance(1_200);
    expect(store.refusal('license:a', 'mem_2')).toEqual({ kind: 'spacing', retryInMs: 1_800 });
    // Another actor is not held by it.
    expect(store.refusal('license:b', 'mem_2')).toBeNull();
    advance(1_800);
    expect(store.refusal('license:a', 'mem_2')).toBeNull();
  });

  it('a player actor: 30 an hour; the 31st waits for the first to leave the hour', () => {
    const { store, advance } = limits();
    for (let i = 0; i < 30; i++) {
      expect(store.refusal('license:a', `mem_${i}`)).toBeNull();
      store.countActor('license:a');
      advance(10_000);
    }
    // 300 s have passed since the first change: it leaves the hour in 3,300 s.
    expect(store.refusal('license:a', 'mem_x')).toEqual({ kind: 'hourly', retryInMs: 3_300_000 });
    advance(3_300_000);
    expect(store.refusal('license:a', 'mem_x')).toBeNull();
  });

  it('the console is exempt from the actor limits, not from the target limit', () => {
    const { store, advance } = limits();
    for (let i = 0; i < 4; i++) {
      expect(store.refusal(null, 'mem_1')).toBeNull();
      store.countTarget('mem_1');
      advance(1_000);
    }
    expect(store.refusal(null, 'mem_1')).toEqual({ kind: 'target', retryInMs: 596_000 });
    expect(store.refusal('license:c', 'mem_1')?.kind).toBe('target');
    expect(store.refusal(null, 'mem_2')).toBeNull();
    advance(596_000);
    expect(store.refusal(null, 'mem_1')).toBeNull();
  });

  it('forgets actors and targets whose window has passed', () => {
    const { store, advance } = limits();
    for (let i = 0; i < 600; i++) store.countTarget(`mem_${i}`);
    advance(600_001);
    store.countTarget('mem_new');
    const held = (store as unknown as { targets: Map<string, number[]> }).targets;
    expect([...held.keys()]).toEqual(['mem_new']);
  });

  it('says waits the way a person reads them', () => {
    expect(waitText(1)).toBe('1 s');
    expect(waitText(1_800)).toBe('2 s');
    expect(waitText(89_000)).toBe('89 s');
    expect(waitText(596_000)).toBe('10 min');
    expect(waitText(3 * 3_600_000 + 60_000)).toBe('3 h 1 min');
    expect(waitText(2 * 3_600_000)).toBe('2 h');
  });
});
