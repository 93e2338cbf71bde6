import type { FxHttpHandler } from './fx-http';

/**
 * The FXServer globals this resource uses, typed in one place. They are read from `globalThis`
 * (the resource's own script scope in FXServer), never through module bindings.
 */

export interface Deferrals {
  defer(): void;
  update(message: string): void;
  done(reason?: string): void;
  presentCard?(card: unknown, callback?: unknown): void;
  handover?(data: Record<string, unknown>): void;
}

export interface StateBag {
  set(key: string, value: unknown, replicated: boolean): void;
  [key: string]: unknown;
}

export interface Fx {
  source: number | string | null | undefined;
  on(event: string, handler: (...args: never[]) => void): void;
  emit(event: string, ...args: unknown[]): void;
  exports(name: string, fn: (...args: never[]) => unknown): void;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  Player(src: number | string): { state: StateBag };
  getPlayers(): string[];
  getPlayerIdentifiers(src: number | string): string[];
  GetPlayerName(src: number | string): string | null;
  GetCurrentResourceName(): string;
  /** The resource that called into this one (an export's caller), or null for the server itself. */
  GetInvokingResource(): string | null;
  GetResourcePath(resource: string): string | null;
  /** `started`, `stopped`, `missing`… of any resource. */
  GetResourceState(resource: string): string;
  LoadResourceFile(resource: string, file: string): string | null;
  GetConvar(name: string, fallback: string): string;
  GetConvarInt(name: string, fallback: number): number;
  IsPlayerAceAllowed(src: number | string, ace: string): boolean;
  IsPrincipalAceAllowed(principal: string, ace: string): boolean;
  /** Runs one console command as the principal `resource.<this resource>`. */
  ExecuteCommand(command: string): void;
  RegisterCommand(
    name: string,
    handler: (src: number, args: string[], raw: string) => void,
    restricted: boolean,
  ): void;
  /** Serves `http://<server>:<port>/<resource>/…` (ext/native-decls/SetHttpHandler.md). */
  SetHttpHandler(handler: FxHttpHandler): void;
}

export const fx = globalThis as unknown as Fx;
