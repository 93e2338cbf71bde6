import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FxServer } from '../emulator';
import type { MockRoster } from '../mock-roster/server';

/** Where a gate finds the roster service: the mock in this process, or its address and key from another. */
export interface ServiceAddress {
  url: string;
  keys: { full: string };
}

/** Both dev/bench/*.ts (tests) and .build/dev/bench.mjs sit two folders below the repository. */
export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const naiveGateFolder = join(repoRoot, 'dev/bench/naive-gate');

export type GateKind = 'roster' | 'naive';

export interface GateServer {
  kind: GateKind;
  server: FxServer;
  close(): void;
}

export interface GateServerOptions {
  /** The mock key's token (default: the `full` key). */
  apiKey?: string;
  /** roster: config.json; naive: `naive_*` convars (cache_seconds, refresh_seconds). */
  config?: Record<string, unknown>;
  naive?: { cacheSeconds?: number; refreshSeconds?: number };
  /** server.cfg `add_ace` lines (e.g. the two that let roster change principals). */
  aces?: readonly (readonly [string, string, ('allow' | 'deny')?])[];
  /** Start without the gate resource (e.g. to bring players online first). */
  deferStart?: boolean;
  /**
   * roster: an installed resource folder to start from (`rosterFolder`), kept on close, so a
   * second server can start from what the first left in it (its member snapshot).
   */
  folder?: string;
  /** More server.cfg convars (e.g. `sv_maxclients` for a queue resource). */
  convars?: Record<string, string>;
}

/**
 * An emulated FXServer with one gate resource in it, installed as an owner would: the roster
 * bundle from a resource folder with config.json, or the naive gate's own folder.
 */
export async function startGateServer(
  kind: GateKind,
  mock: ServiceAddress,
  options: GateServerOptions = {},
): Promise<GateServer & { startGate(): void }> {
  const apiKey = options.apiKey ?? mock.keys.full;
  const server = new FxServer({
    convars: {
      ...(kind === 'roster'
        ? { roster_api_key: apiKey, roster_base_url: mock.url }
        : {
            naive_api_key: apiKey,
            naive_base_url: mock.url,
            naive_cache_seconds: String(options.naive?.cacheSeconds ?? 300),
            naive_refresh_seconds: String(options.naive?.refreshSeconds ?? 0),
          }),
      ...options.convars,
    },
    convarPermissions: [['roster', 'roster_api_key']],
    aces: options.aces ?? [],
  });
  await server.start();
  const ownFolder = kind === 'roster' && options.folder === undefined;
  const folder = kind === 'roster' ? (options.folder ?? rosterFolder(options.config)) : null;
  const startGate = () => {
    if (kind === 'roster') server.startResource('roster', folder!);
    else server.startResource('naive-gate', naiveGateFolder);
  };
  if (!options.deferStart) startGate();
  return {
    kind,
    server,
    startGate,
    close() {
      server.stop();
      if (folder && ownFolder) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Resolves once the roster resource verified its key and loaded departments and ranks. */
export async function rosterReady(gate: GateServer, mock: MockRoster, timeoutMs = 10_000): Promise<void> {
  if (gate.kind !== 'roster') return;
  const started = Date.now();
  const done = (endpoint: string) =>
    mock.counters.log.some((e) => e.endpoint === endpoint && e.status !== null && e.time >= started - 60_000);
  while (
    !gate.server.log.lines.some((l) => l.includes('connected to the roster')) ||
    !done('GET /api/v1/ranks')
  ) {
    if (Date.now() - started > timeoutMs) {
      throw new Error(`the roster resource did not start:\n${gate.server.log.lines.join('\n')}`);
    }
    await sleep(10);
  }
}

/**
 * The mirror answers joins: after its first read, after a restart's catch-up from the snapshot,
 * or (sharing) once it holds every row the reader wrote to the database.
 */
const MIRROR_HOLDS =
  /the roster mirror holds (?:the shared roster's )?(\d+) members|its (\d+) members' joins are decided without a request/;

/** Members the mirror of `server`'s roster resource holds once its first read completed; null before. */
export function mirrorHolds(server: FxServer): number | null {
  for (const line of server.log.lines) {
    const found = MIRROR_HOLDS.exec(line);
    if (found) return Number(found[1] ?? found[2]);
  }
  return null;
}

/** Resolves (host `Date.now()`) once the mirror's first read completed; throws after `timeoutMs`. */
export async function mirrorComplete(gate: GateServer, timeoutMs = 300_000): Promise<number> {
  const started = Date.now();
  while (mirrorHolds(gate.server) === null) {
    if (Date.now() - started > timeoutMs) {
      throw new Error(
        `the roster mirror did not complete its first read:\n${gate.server.log.lines.join('\n')}`,
      );
    }
    await sleep(20);
  }
  return Date.now();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The roster installed in a temporary resource folder (fxmanifest.lua, dist/server.js, config.json). */
export function rosterFolder(config: Record<string, unknown> | undefined): string {
  const folder = mkdtempSync(join(tmpdir(), 'roster-bench-'));
  mkdirSync(join(folder, 'dist'));
  copyFileSync(join(repoRoot, 'fxmanifest.lua'), join(folder, 'fxmanifest.lua'));
  copyFileSync(join(repoRoot, 'dist/server.js'), join(folder, 'dist/server.js'));
  if (config) writeFileSync(join(folder, 'config.json'), JSON.stringify(config));
  return folder;
}
