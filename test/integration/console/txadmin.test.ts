import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FxServer } from '../../../dev/emulator';
import { eventually, type Harness, inFrames, startHarness, strangerLicense } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SHUTTING_DOWN = 'txAdmin:events:serverShuttingDown';
const SCHEDULED_RESTART = 'txAdmin:events:scheduledRestart';
const RESTARTING = 'Server restarting (scheduled restart at 06:00).';

/**
 * Stands in for txAdmin's `monitor` resource: it turns txAdmin's console command into a server
 * event carrying one table, with TriggerEvent (a Lua resource, as txAdmin's is).
 */
async function startMonitor(server: FxServer) {
  const monitor = await server.startLuaCode(
    'monitor',
    `function notify(name, data) TriggerEvent('txAdmin:events:' .. name, data) end`,
  );
  return (name: string, data: string) => monitor.run(`notify('${name}', ${data})`);
}

/** Ready, the mirror complete, one member online (a client to send net events from). */
async function startOnline(): Promise<{ harness: Harness; playerId: number }> {
  // A long deadline: a join the service does not answer stays open for the whole test.
  const harness = await startHarness({ config: { gate: { timeoutSeconds: 120 } } });
  h = harness;
  await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);
  const member = harness.mock.data.members[0]!;
  const d = await harness.server.connectPlayer({ name: 'Online', identifiers: [member.gameLicense] })
    .decision;
  if (!d.admitted) throw new Error(`refused: ${d.reason}`);
  return { harness, playerId: d.id };
}

/** A stranger whose lookup the service never answers: their deferral stays open. */
function waitingJoin(harness: Harness) {
  harness.mock.faults.hang();
  return harness.server.connectPlayer({ name: 'Waiting', identifiers: [strangerLicense] });
}

/** Lets `frames` server frames run (time on the emulator's own clock). */
async function frames(server: FxServer, count: number): Promise<void> {
  const until = server.frames + count;
  await eventually(() => server.frames >= until);
}

const snapshotPath = (harness: Harness) => join(harness.folder, 'roster-snapshot.json');

describe('txAdmin: the server shutting down', () => {
  it('saves the snapshot at once and tells every waiting join, which no longer hangs', async () => {
    const { harness } = await startOnline();
    const notify = await startMonitor(harness.server);
    const waiting = waitingJoin(harness);
    await frames(harness.server, 10);
    expect(waiting.completed).toBe(false);
    expect(existsSync(snapshotPath(harness))).toBe(false);

    await notify('serverShuttingDown', `{ delay = 5000, author = 'Ann', message = '${RESTARTING}' }`);
    // Saved in the event itself, before anything else runs: txAdmin kills the process 5 s later.
    expect(existsSync(snapshotPath(harness))).toBe(true);
    const saved = JSON.parse(readFileSync(snapshotPath(harness), 'utf8'));
    expect(saved.mirror.members).toHaveLength(harness.mock.data.members.length);
    const { value: decision, frames: took } = await inFrames(harness.server, waiting.decision);
    expect(decision).toEqual({ admitted: false, reason: RESTARTING });
    // Told within a frame, not after the 120 s deadline.
    expect(took).toBeLessThanOrEqual(1);
    expect(harness.logText()).toMatch(
      /txAdmin shuts the server down in 5s \(Ann\): 1 waiting join\(s\) told so/,
    );

    // A join in the seconds left is told the same at once, without a lookup.
    const requests = harness.mock.counters.total;
    const late = harness.server.connectPlayer({ name: 'Late', identifiers: [strangerLicense] });
    expect(await late.decision).toEqual({ admitted: false, reason: RESTARTING });
    expect(harness.mock.counters.total).toBe(requests);
  });

  it('the same event sent by a client does nothing: no save, the join still waits', async () => {
    const { harness, playerId } = await startOnline();
    const waiting = waitingJoin(harness);
    await frames(harness.server, 5);
    harness.server.emitNet(SHUTTING_DOWN, playerId, { delay: 0, author: 'x', message: 'Come back later' });
    harness.server.emitNet(SCHEDULED_RESTART, playerId, { secondsRemaining: 60 });
    await frames(harness.server, 10);
    expect(waiting.completed).toBe(false);
    expect(existsSync(snapshotPath(harness))).toBe(false);
    // FXServer's own refusal of a client event no handler made net-safe (main.js).
    expect(harness.logText()).toContain(`Event ${SHUTTING_DOWN} was not safe for net`);
    expect(harness.logText()).not.toContain('txAdmin shuts the server down');

    // The same from the server itself is heard: the handler was there all along.
    const notify = await startMonitor(harness.server);
    await notify('serverShuttingDown', `{ delay = 5000, author = 'txAdmin', message = '${RESTARTING}' }`);
    expect(await waiting.decision).toEqual({ admitted: false, reason: RESTARTING });
  });

  it('data that is not what txAdmin sends is ignored with a warning', async () => {
    const { harness } = await startOnline();
    const notify = await startMonitor(harness.server);
    const waiting = waitingJoin(harness);
    await frames(harness.server, 5);
    await notify('serverShuttingDown', `'now'`);
    await notify('serverShuttingDown', `{ delay = '5s', author = 'txAdmin', message = 'Bye' }`);
    await frames(harness.server, 5);
    expect(waiting.completed).toBe(false);
    expect(existsSync(snapshotPath(harness))).toBe(false);
    expect(harness.logText()).toMatch(
      /ignored txAdmin:events:serverShuttingDown: its data is not what txAdmin sends \(delay: /,
    );
  });
});

describe('txAdmin: a scheduled restart', () => {
  it('saves the snapshot at its warning and leaves joins alone', async () => {
    const { harness } = await startOnline();
    const notify = await startMonitor(harness.server);
    const waiting = waitingJoin(harness);
    await frames(harness.server, 5);
    await notify('scheduledRestart', `{ secondsRemaining = 60, translatedMessage = 'Restart in 1 minute' }`);
    // Written in the background over the next frames: the restart is a minute away.
    await eventually(() => existsSync(snapshotPath(harness)));
    const saved = JSON.parse(readFileSync(snapshotPath(harness), 'utf8'));
    expect(saved.mirror.members).toHaveLength(harness.mock.data.members.length);
    expect(waiting.completed).toBe(false);
  });
});
