import type { Clock, TimerHandle } from '../platform/ports';

/** Repeating work with jitter that never overlaps itself; stopped as a whole on resource stop. */
export class Schedule {
  private readonly handles = new Set<TimerHandle>();
  private stopped = false;

  constructor(
    protected readonly clock: Clock,
    private readonly random: () => number = Math.random,
  ) {}

  /** Runs `task` every `intervalMs` ± `jitter` (a fraction), waiting for each run to finish first. */
  every(intervalMs: number, task: () => Promise<unknown> | unknown, jitter = 0): void {
    if (intervalMs <= 0) return;
    const next = () => {
      if (this.stopped) return;
      const delay = intervalMs * (1 + jitter * (this.random() * 2 - 1));
      const handle = this.clock.setTimeout(() => {
        this.handles.delete(handle);
        Promise.resolve()
          .then(task)
          .catch(() => undefined)
          .finally(next);
      }, delay);
      this.handles.add(handle);
    };
    next();
  }

  /** Runs `task` once after `delayMs`. */
  once(delayMs: number, task: () => unknown): void {
    if (this.stopped) return;
    const handle = this.clock.setTimeout(() => {
      this.handles.delete(handle);
      task();
    }, delayMs);
    this.handles.add(handle);
  }

  /**
   * The same schedule, whose runs are skipped while `held()` says so (a task held at its time
   * waits for its next one; a `once` held is dropped). Stopped with this one.
   */
  heldWhile(held: () => boolean): Schedule {
    return new HeldSchedule(this, this.clock, held);
  }

  stop(): void {
    this.stopped = true;
    for (const handle of this.handles) this.clock.clearTimeout(handle);
    this.handles.clear();
  }
}

/** A view of a schedule whose runs are skipped while held. */
class HeldSchedule extends Schedule {
  constructor(
    private readonly inner: Schedule,
    clock: Clock,
    private readonly held: () => boolean,
  ) {
    super(clock);
  }

  override every(intervalMs: number, task: () => Promise<unknown> | unknown, jitter = 0): void {
    this.inner.every(intervalMs, () => (this.held() ? undefined : task()), jitter);
  }

  override once(delayMs: number, task: () => unknown): void {
    this.inner.once(delayMs, () => (this.held() ? undefined : task()));
  }

  override stop(): void {
    this.inner.stop();
  }
}
