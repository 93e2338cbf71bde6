import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FxServer, type HandlerOrder, type ScriptResource } from '../../dev/emulator';
import type { MockMember } from '../../dev/mock-roster/records';
import { type MockRoster, startMockRoster } from '../../dev/mock-roster/server';
import { attachDatabase, type ServerDatabase } from '../share-db/server-database';

const repo = resolve(import.meta.dirname, '../..');

export interface Harness {
  mock: MockRoster;
  server: FxServer;
  folder: string;
  caller: ScriptResource;
  /** With `database`: the server's database and the oxmysql link to it. */
  database: ServerDatabase | undefined;
  /** Log lines of the roster resource, joined. */
  logText(): string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  config?: Record<string, unknown>;
  members?: number;
  keyName?: string;
  /** Replaces the key convar (e.g. '' for a missing key). */
  apiKey?: string;
  baseUrl?: string;
  aces?: readonly (readonly [string, string, ('allow' | 'deny')?])[];
  /** The mock service's clock (e.g. minutes off this machine's); `Date.now` by default. */
  mockNow?: () => number;
  /** Runs before the resource starts (e.g. to set faults or write a snapshot). */
  beforeStart?: (mock: MockRoster, folder: string) => void | Promise<void>;
  startResource?: boolean;
  /**
   * The order resources' handlers run in; FXServer's own by default (the resource that registered
   * for an event last runs first), so a test's caller resource runs before roster, as a resource
   * started after roster does on a real server.
   */
  order?: HandlerOrder;
  /** A database on the test MariaDB and the oxmysql resource, started before roster. */
  database?: boolean;
}

/** A resource folder as an owner installs it: manifest, bundle and config.json. */
export function resourceFolder(config: Record<string, unknown> | undefined): string {
  const folder = mkdtempSync(join(tmpdir(), 'roster-resource-'));
  mkdirSync(join(folder, 'dist'));
  copyFileSync(join(repo, 'fxmanifest.lua'), join(folder, 'fxmanifest.lua'));
  copyFileSync(join(repo, 'dist/server.js'), join(folder, 'dist/server.js'));
  if (config) writeFileSync(join(folder, 'config.json'), JSON.stringify(config));
  return folder;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const mock = await startMockRoster({
    port: 0,
    members: options.members ?? 200,
    seed: 7,
    ...(options.mockNow ? { now: options.mockNow } : {}),
  });
  const folder = resourceFolder(options.config);
  const key = options.apiKey ?? mock.keys[options.keyName ?? 'full'];
  const server = new FxServer({
    convars: {
      roster_api_key: String(key),
      roster_base_url: options.baseUrl ?? mock.url,
    },
    aces: options.aces ?? [],
    convarPermissions: [['roster', 'roster_api_key']],
    order: options.order ?? 'registration',
  });
  await server.start();
  const database = options.database ? await attachDatabase(server) : undefined;
  await options.beforeStart?.(mock, folder);
  if (options.startResource !== false) server.startResource('roster', folder);
  const caller = server.createScriptResource('caller');
  return {
    mock,
    server,
    folder,
    caller,
    database,
    logText: () => server.log.lines.join('\n'),
    async close() {
      server.stop();
      await database?.close();
      await mock.close();
      rmSync(folder, { recursive: true, force: true });
      expectNoUnhandledRejections(server);
    },
  };
}

/**
 * FXServer only prints a warning for a rejection nobody handled (--unhandled-rejections=warn),
 * so the emulator records them instead of failing the run; a test that caused one fails here.
 */
export function expectNoUnhandledRejections(server: FxServer): void {
  const lost = server.unhandledRejections;
  if (lost.length === 0) return;
  const list = lost.map((r) => `[${r.resource}] ${String((r.reason as Error)?.stack ?? r.reason)}`);
  throw new Error(`unhandled rejections in resources:\n${list.join('\n')}`);
}

/** What `eventually` and `withinFrames` poll: a value when the condition is met, else undefined or false. */
type Check<T> = () => T | undefined | false | Promise<T | undefined | false>;

/**
 * Waits until `check` passes, polling on real time (the emulator's tick loop runs meanwhile) every
 * `everyMs`: an asynchronous check (one that asks a server or the database) is awaited, and is
 * better polled less often than the default.
 */
export async function eventually<T>(check: Check<T>, timeoutMs = 5000, everyMs = 5): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Waits until `check` passes, looking once a frame for at most `frames` server frames: a bound on
 * the emulator's own clock, which a busy machine runs late, so a slow host does not fail it.
 */
export async function withinFrames<T>(server: FxServer, frames: number, check: Check<T>): Promise<T> {
  const until = server.frames + frames;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (server.frames >= until) throw new Error(`condition not met within ${frames} frames`);
    await server.nextTick();
  }
}

/**
 * How many server frames `work` took to settle. Time judged on the emulator's own clock: a machine
 * busy with other work runs frames late instead of failing a bound on the host's wall clock.
 */
export async function inFrames<T>(server: FxServer, work: Promise<T>): Promise<{ value: T; frames: number }> {
  const from = server.frames;
  const value = await work;
  return { value, frames: server.frames - from };
}

/** Server frames in `seconds` of game time (FXServer runs 20 a second). */
export const framesIn = (seconds: number): number => Math.round(seconds * 20);

/** A license the mock service does not know. */
export const strangerLicense = `license:${'f'.repeat(40)}`;

/** The Member the resource should hand out for a mock member, in the shape the exports give. */
export function expectedMember(h: Harness, member: MockMember) {
  const { data } = h.mock.data;
  return {
    id: member.id,
    name: member.displayName,
    status: member.status,
    license: member.gameLicense,
    departments: h.mock.data
      .assignmentsOf(member.id)
      .map((a) => {
        const department = data.departments.find((d) => d.id === a.departmentId)!;
        const rank = a.rankId ? h.mock.data.rank(a.rankId)! : null;
        return {
          id: department.id,
          name: department.name,
          shortName: department.shortName,
          primary: a.isPrimary,
          callsign: a.callsign,
          rank: rank ? { id: rank.id, name: rank.name, position: rank.position } : null,
        };
      })
      .sort((a, b) => a.id.localeCompare(b.id)),
  };
}
