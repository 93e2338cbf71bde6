/** The FXServer globals (main.js and natives) the stand-in uses. */
type Fn = (...args: unknown[]) => unknown;

interface FxGlobals {
  exports(name: string, fn: (...args: never[]) => unknown): void;
  on(event: string, listener: Fn): void;
  emit(event: string, ...args: unknown[]): void;
  GetConvar(name: string, fallback: string): string;
  GetConvarInt(name: string, fallback: number): number;
  GetCurrentResourceName(): string;
  GetInvokingResource(): string | null;
}

export const fx = globalThis as unknown as FxGlobals;

/** A caller's callback (a function reference from another resource). */
export type Callback = (result: unknown, error?: string) => unknown;

/** The resource that called the export, as oxmysql defaults it. */
export const invokingResource = (): string | null => fx.GetInvokingResource();

/** `sleep(ms)` on the resource's own (frame-driven) timers. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
