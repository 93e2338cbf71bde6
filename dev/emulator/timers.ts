/**
 * FXServer's timers (data/shared/citizen/scripting/v8/timer.js): driven by the server tick, a
 * timer fires once `now - lastRun > max(1, interval)`; handles carry unref/ref/hasRef/refresh
 * and a Symbol.toPrimitive giving the id; clear* takes the handle (a bare number does nothing);
 * setTick skips while the Promise it returned is pending. Installed as non-writable globals.
 */
type Callback = (...args: unknown[]) => unknown;

interface Timer {
  readonly callback: () => void;
  readonly interval: number;
  lastRun: number;
}

export interface TimerHandle {
  readonly id: number;
  unref(): TimerHandle;
  ref(): TimerHandle;
  hasRef(): boolean;
  refresh(): TimerHandle;
  [Symbol.toPrimitive](): number;
}

const normalizeInterval = (interval: unknown): number =>
  Math.max(1, Math.min(2147483647, Number(interval) || 1)) | 0;

export class ResourceTimers {
  private readonly timers = new Map<number, Timer>();
  private readonly tickers = new Map<number, { callback: Callback; pending: boolean }>();
  private timerId = 0;
  private tickerId = 0;
  private gameTime: number;

  constructor(
    now: number,
    private readonly printError: (where: string, error: unknown) => void,
    private readonly makeTypeError: (message: string) => Error,
  ) {
    this.gameTime = now;
  }

  install(global: Record<string, unknown>): void {
    const clear = (handle: unknown) => this.clearTimer(handle);
    const globals: Record<string, unknown> = {
      setTick: (cb: unknown) => this.setTick(cb),
      clearTick: (id: unknown) => this.clearTick(id),
      setTimeout: (cb: unknown, ms?: unknown, ...args: unknown[]) => this.setTimer(cb, ms, args, true),
      setInterval: (cb: unknown, ms?: unknown, ...args: unknown[]) => this.setTimer(cb, ms, args, false),
      setImmediate: (cb: unknown, ...args: unknown[]) => this.setTimer(cb, 0, args, true),
      clearTimeout: clear,
      clearInterval: clear,
      clearImmediate: clear,
    };
    for (const [name, value] of Object.entries(globals)) {
      Object.defineProperty(global, name, { value, writable: false, enumerable: true, configurable: false });
    }
  }

  get active(): number {
    return this.timers.size + this.tickers.size;
  }

  /**
   * timer.js `onTick`: `for (const timerId in timers)` walks the live object, so a timer cleared
   * earlier in this tick is skipped and one added during it waits for the next tick (the ids
   * are taken first, then looked up again). No microtask runs between two timers: FXServer
   * drains them with `process._tickCallback()` once the tick is over (here: when the host's
   * frame callback returns).
   */
  tick(now: number): void {
    for (const id of [...this.timers.keys()]) {
      const timer = this.timers.get(id);
      if (!timer) continue;
      if (now - timer.lastRun > timer.interval) {
        try {
          timer.callback();
        } catch (error) {
          this.printError('timer', error);
        }
        timer.lastRun = now;
      }
    }
    for (const id of [...this.tickers.keys()]) {
      const ticker = this.tickers.get(id);
      if (!ticker || ticker.pending) continue;
      let result: unknown;
      try {
        result = ticker.callback();
      } catch (error) {
        this.printError('ticker', error);
        continue;
      }
      const thenable = result as { then?: unknown } | null | undefined;
      if (thenable != null && typeof thenable.then === 'function') {
        ticker.pending = true;
        (result as Promise<unknown>).then(
          () => {
            const t = this.tickers.get(id);
            if (t) t.pending = false;
          },
          // timer.js: `.catch(printTickerError)` leaves the ticker pending for good.
          (error: unknown) => this.printError('ticker', error),
        );
      }
    }
    this.gameTime = now;
  }

  clearAll(): void {
    this.timers.clear();
    this.tickers.clear();
  }

  /** Runs `callback` once, on the first frame more than `ms` from now (a Lua `Wait`). */
  after(ms: number, callback: () => void): void {
    this.setTimer(callback, ms, [], true);
  }

  private setTimer(callback: unknown, interval: unknown, args: unknown[], once: boolean): TimerHandle {
    if (typeof callback !== 'function') {
      throw this.makeTypeError(`Callback must be a function. Received ${String(callback)}`);
    }
    const handle = this.newHandle();
    const run = once
      ? () => {
          try {
            callback(...args);
          } finally {
            this.timers.delete(handle.id);
          }
        }
      : () => callback(...args);
    this.timers.set(handle.id, {
      callback: run,
      interval: normalizeInterval(interval),
      lastRun: this.gameTime,
    });
    return handle;
  }

  private newHandle(): TimerHandle {
    const id = ++this.timerId;
    const timers = this.timers;
    const self = this;
    return {
      id,
      unref() {
        return this;
      },
      ref() {
        return this;
      },
      hasRef: () => true,
      // timer.js deletes a setTimeout's entry once it ran, so refreshing a fired timer does
      // nothing: a library that keeps one timer alive with refresh() stops after the first run.
      refresh() {
        const timer = timers.get(id);
        if (timer) timer.lastRun = self.gameTime;
        return this;
      },
      [Symbol.toPrimitive]: () => id,
    };
  }

  private clearTimer(handle: unknown): void {
    // timer.js reads `timer.id`: a bare number has none, so nothing is cleared.
    if (!handle) return;
    const id = (handle as { id?: unknown }).id;
    if (typeof id === 'number') this.timers.delete(id);
  }

  private setTick(callback: unknown): number {
    if (typeof callback !== 'function') {
      throw this.makeTypeError(`Callback must be a function. Received ${String(callback)}`);
    }
    const id = ++this.tickerId;
    this.tickers.set(id, { callback: callback as Callback, pending: false });
    return id;
  }

  private clearTick(id: unknown): void {
    if (!id) return;
    this.tickers.delete(Number(id));
  }
}
