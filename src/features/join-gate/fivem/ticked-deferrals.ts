import { type Deferrals, fx } from '../../../platform/natives';

/**
 * Deferrals whose `update` and `done` wait for the next server tick after `defer()`, as FXServer
 * needs, while the join's work (the roster lookup) starts at once: the tick is not added to every
 * join's wait.
 */
export class TickedDeferrals implements Deferrals {
  private ticked = false;
  private readonly queued: (() => void)[] = [];

  constructor(private readonly inner: Deferrals) {
    inner.defer();
    fx.setTimeout(() => this.flush(), 0);
  }

  defer(): void {}

  update(message: string): void {
    this.later(() => this.inner.update(message));
  }

  done(reason?: string): void {
    this.later(() => (reason === undefined ? this.inner.done() : this.inner.done(reason)));
  }

  /** Sends what waits now (the resource is stopping: its timers will not run again). */
  flush(): void {
    this.ticked = true;
    for (const call of this.queued.splice(0)) call();
  }

  private later(call: () => void): void {
    if (this.ticked) call();
    else this.queued.push(call);
  }
}
