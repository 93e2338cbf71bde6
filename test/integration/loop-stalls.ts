/**
 * How long this process's event loop stood still: the emulator, the resource's timers and the
 * mock all run on it, so a busy machine that holds the loop for a second makes every deadline timer
 * fire a second late. A wait is judged on what is left once the loop's own stalls during it are
 * taken off: the resource's deadline, not the machine's load.
 */
const TICK_MS = 20;
/** Samples kept: a few minutes, longer than any wait judged. */
const KEPT = 20_000;

const samples: { at: number; lateMs: number }[] = [];
let expected = Date.now() + TICK_MS;
const sampler = setInterval(() => {
  const now = Date.now();
  samples.push({ at: now, lateMs: Math.max(0, now - expected) });
  if (samples.length > KEPT) samples.splice(0, samples.length - KEPT);
  expected = now + TICK_MS;
}, TICK_MS);
sampler.unref();

/** The event loop's stalls between `from` and `to` (epoch ms), added up. */
export function stalledMs(from: number, to: number): number {
  let total = 0;
  for (const { at, lateMs } of samples) if (at > from && at - lateMs < to) total += lateMs;
  return total;
}
