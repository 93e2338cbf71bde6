/** What the core needs from its host; FiveM globals never reach the core directly. */

export interface TimerHandle {
  unref?(): unknown;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

/** The host's own timers (FXServer's tick-driven ones inside the resource, Node's in tests). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const silentLogger: Logger = { error() {}, warn() {}, info() {}, debug() {} };
