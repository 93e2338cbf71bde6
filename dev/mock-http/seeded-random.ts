import { createHash } from 'node:crypto';

/** A small seeded generator (mulberry32): the same seed gives the same data on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 40 lowercase hex digits derived from the parts; used for licenses, ids and key secrets. */
export function hexDigest(...parts: (string | number)[]): string {
  return createHash('sha1').update(parts.join(':')).digest('hex');
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
