/**
 * The model's random source: the mock's seeded generator (mulberry32), so the model's faults and
 * its first roster come from the history's seed, a history replays exactly and fast-check can
 * shrink it.
 */
export { seededRandom } from '../../../dev/mock-http/seeded-random';

export type Random = () => number;

/** One of `items`, chosen by `random`. */
export function oneOf<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}
