import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CATCH_UP_READS } from '../../../src/features/audit/audit-cursor';
import { AUDIT_OVERLAP_MS } from '../../../src/features/audit/audit-feed';
import { admissionFor } from '../../../src/features/join-gate/admission';
import { license, outcome } from '../../roster/client/fake-roster';
import { until } from './fake-community';
import { firstRun, type Rig, restarted, stopAndSave } from './restart-rig';

const RESYNC_MS = 360 * 60_000;
const MESSAGES = {
  notOnRoster: 'not on the roster',
  wrongStatus: 'status is {status}',
  notInDepartment: 'not in a department',
  unavailable: 'unavailable',
} as never;
const CACHED = { requireStatus: ['ACTIVE'], departments: ['LSPD'], onError: 'cached' as const };

let rigs: Rig[] = [];
afterEach(async () => {
  for (const rig of rigs) await rig.close();
  rigs = [];
});

/** Member `i` of the fake community (license i + 1), as a join resolves them. */
async function join(rig: Rig, i: number) {
  const before = rig.requests.length;
  const resolution = await rig.members.resolve(license(i + 1), 'join', { decideOnly: true });
  return { resolution, requests: rig.requests.length - before };
}

describe('a restart with a recent snapshot', () => {
  it('catches up from the saved audit position in one read; the change made meanwhile is honoured and every other join needs no request', async () => {
    const { rig: a, log } = await firstRun();
    const saved = await stopAndSave(a);
    expect(saved.audit?.at).toEqual(expect.any(Number));
    // Down for a minute; meanwhile a member is suspended in the dashboard.
    await a.clock.advance(60_000);
    a.community.members[4]!.status = 'SUSPENDED';
    log.write('m-4');
    const { rig: b, feed } = restarted(a, log);
    rigs.push(b);
    log.reads.length = 0;

    expect(b.sync.restore(saved)).toBe(true);
    expect(b.sync.report().state.kind).toBe('catching-up');
    await b.catalog.load();
    b.sync.follow(feed);
    b.sync.begin();
    // The anchor scheduled at start finds the feed resumed: nothing asked.
    await feed.anchor();
    await until(b.clock, () => b.sync.report().state.kind === 'up');

    // One read of the log, from the overlap before the saved position; no newest-entries read.
    expect(log.reads).toEqual([
      { newest: false, after: new Date(saved.audit!.at! - AUDIT_OVERLAP_MS - 1).toISOString() },
    ]);
    expect(b.sync.report().caughtUp).toEqual({ at: expect.any(Number), reads: 1 });
    // No full read: the roster was not read again.
    expect(b.mirrorRequests()).toEqual([]);
    const suspended = await join(b, 4);
    expect(suspended.resolution.kind === 'answer' && suspended.resolution.view?.member.status).toBe(
      'SUSPENDED',
    );
    expect(suspended.requests).toBe(0);
    for (const i of [0, 1, 7, 120, 249]) {
      const other = await join(b, i);
      expect(other.resolution.kind === 'answer' && other.resolution.view?.member.id).toBe(`m-${i}`);
      expect(other.requests).toBe(0);
    }
  });

  it('until caught up, joins are looked up, and the outage policy finds the snapshot members', async () => {
    const { rig: a, log } = await firstRun();
    const saved = await stopAndSave(a);
    const { rig: b } = restarted(a, log);
    rigs.push(b);
    b.sync.restore(saved);
    // Before the key check: departments and ranks not loaded, the service down.
    const base = b.community.handler;
    b.community.handler = () => ({
      status: 503,
      body: { success: false, error: { code: 'internal', message: 'down' } },
    });
    const down = await outcome(b.clock, b.members.resolve(license(6), 'join', { decideOnly: true }));
    const resolution = down.value!;
    expect(resolution.kind).toBe('outage');
    // Named from the departments saved beside the mirror, so a department rule still applies.
    expect(admissionFor(resolution, CACHED, MESSAGES, { player: 'p', community: 'c' })).toEqual({
      allow: true,
      basis: 'last-known',
    });
    b.community.handler = base;
    // The key check loads them; the feed has not caught up yet.
    await b.catalog.load(true);
    expect(b.catalog.ready).toBe(true);
    expect(b.sync.report().state.kind).toBe('catching-up');
    const looked = await join(b, 6);
    expect(looked.requests).toBeGreaterThan(0);
    expect(looked.resolution).toMatchObject({ kind: 'answer', view: { member: { id: 'm-6' } } });
  });

  it('the full read stays due from the restored one, not from the restart', async () => {
    const { rig: a, log } = await firstRun({ resyncMs: 60 * 60_000 });
    const saved = await stopAndSave(a);
    await a.clock.advance(40 * 60_000);
    const { rig: b, feed } = restarted(a, log, { resyncMs: 60 * 60_000 });
    rigs.push(b);
    b.sync.restore(saved);
    await b.catalog.load();
    b.sync.follow(feed);
    b.sync.begin();
    await until(b.clock, () => b.sync.report().state.kind === 'up');
    expect(b.mirrorRequests()).toEqual([]);
    await b.clock.advance(22 * 60_000);
    expect(b.mirrorRequests().length).toBeGreaterThan(0);
    expect(b.sync.report().lastFullReadAt).toBeGreaterThan(saved.fullReadAt);
  });

  it('saved again before the key was ever verified, it keeps the position it was restored with', async () => {
    const { rig: a, log } = await firstRun();
    const saved = await stopAndSave(a);
    const { rig: b } = restarted(a, log);
    b.sync.restore(saved);
    const again = await stopAndSave(b);
    expect(again.audit).toEqual(saved.audit);
    expect(again.fullReadAt).toBe(saved.fullReadAt);
  });

  it('keeps the count of requests spent on the mirror today', async () => {
    const { rig: a, log } = await firstRun();
    const spent = a.sync.report().requestsToday;
    expect(spent).toBeGreaterThan(0);
    const saved = await stopAndSave(a);
    const { rig: b } = restarted(a, log);
    rigs.push(b);
    b.sync.restore(saved);
    expect(b.sync.report().requestsToday).toBe(spent);
  });
});

describe('a stale snapshot', () => {
  it('older than mirror.resyncMinutes: not used for joins, only as last known records, until a full read', async () => {
    const { rig: a, log } = await firstRun();
    const saved = await stopAndSave(a);
    await a.clock.advance(RESYNC_MS + 60_000);
    const { rig: b, feed } = restarted(a, log);
    rigs.push(b);
    expect(b.sync.restore(saved)).toBe(false);
    expect(b.sync.report().state).toEqual({
      kind: 'stale',
      why: 'its last full read is older than mirror.resyncMinutes',
    });
    expect(b.members.lastKnown(license(3))?.member.id).toBe('m-2');
    await b.catalog.load();
    b.sync.follow(feed);
    log.reads.length = 0;
    // A join while stale is looked up.
    expect((await join(b, 2)).requests).toBeGreaterThan(0);
    b.sync.begin();
    await feed.anchor();
    // The feed anchors anew: nothing resumes from the stale snapshot's position.
    expect(log.reads).toEqual([{ newest: true, after: undefined }]);
    await until(b.clock, () => b.sync.report().state.kind === 'up');
    expect(b.mirrorRequests().length).toBeGreaterThan(0);
    expect(b.sync.report().caughtUp).toBeNull();
    expect((await join(b, 9)).requests).toBe(0);
  });

  it('saved again while stale, before a full read completed: still stale, though the feed runs', async () => {
    const { rig: a, log } = await firstRun();
    const saved = await stopAndSave(a);
    const { rig: b, feed } = restarted(a, log);
    b.sync.restore({ ...saved, audit: null });
    b.sync.follow(feed);
    await feed.poll();
    expect(feed.position()).not.toBeNull();
    expect((await stopAndSave(b)).audit).toBeNull();
  });

  it('saved after a gap the feed reported since the last full read: stale, whatever its age', async () => {
    const { rig: a, log, feed } = await firstRun({}, 10);
    log.burst(10 * (MAX_CATCH_UP_READS + 1) + 1);
    for (let i = 0; i <= MAX_CATCH_UP_READS + 1 && log.gaps.length === 0; i++) await feed.poll();
    expect(log.gaps).toHaveLength(1);
    const saved = await stopAndSave(a);
    expect(saved.audit).toBeNull();
    const { rig: b } = restarted(a, log);
    rigs.push(b);
    expect(b.sync.restore(saved)).toBe(false);
    expect(b.sync.report().state).toMatchObject({
      kind: 'stale',
      why: 'saved out of step with the audit log',
    });
  });

  it('a catch-up that meets a gap leaves it stale; a full read replaces it', async () => {
    const { rig: a, log } = await firstRun();
    const saved = await stopAndSave(a);
    const { rig: b } = restarted(a, log);
    rigs.push(b);
    const feed = log.feedFor(b, 10);
    log.burst(10 * (MAX_CATCH_UP_READS + 1) + 1);
    b.sync.restore(saved);
    await b.catalog.load();
    b.sync.follow(feed);
    b.sync.begin();
    await until(b.clock, () => b.sync.report().state.kind === 'up');
    expect(log.gaps).toHaveLength(1);
    expect(b.mirrorLines.map((l) => l.message).join('\n')).toMatch(
      /stale \(the audit catch-up could not complete: a gap in the audit log/,
    );
    expect(b.mirrorRequests().length).toBeGreaterThan(0);
    expect(b.sync.report().caughtUp).toBeNull();
  });

  it('a catch-up whose log cannot be read leaves it stale; a full read replaces it', async () => {
    const { rig: a, log } = await firstRun();
    const saved = await stopAndSave(a);
    const { rig: b, feed } = restarted(a, log);
    rigs.push(b);
    log.failing = true;
    b.sync.restore(saved);
    await b.catalog.load();
    b.sync.follow(feed);
    b.sync.begin();
    await until(b.clock, () => b.sync.report().state.kind === 'up');
    expect(b.mirrorLines.map((l) => l.message).join('\n')).toMatch(
      /stale \(the audit catch-up could not complete: the audit log could not be read\)/,
    );
    expect(b.mirrorRequests().length).toBeGreaterThan(0);
  });
});
