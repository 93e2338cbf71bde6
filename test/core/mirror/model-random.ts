/**
 * A small seeded random source (mulberry32): the model's faults and its first roster come from
 * the history's seed, so a history replays exactly and fast-check can shrink it.
 */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One of `items`, chosen by `random`. */
export function oneOf<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}
