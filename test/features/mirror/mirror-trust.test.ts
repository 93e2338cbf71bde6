import { afterEach, describe, expect, it } from 'vitest';
import { license, outcome } from '../../roster/client/fake-roster';
import { followedFeed, mirrorRig, until } from './fake-community';

type Rig = ReturnType<typeof mirrorRig>;
let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function started(
  options: Parameters<typeof mirrorRig>[0] = {},
  inStep: () => boolean = () => true,
): Promise<Rig> {
  rig = mirrorRig(options);
  await rig.catalog.load();
  rig.sync.follow(followedFeed(rig, inStep));
  rig.sync.begin();
  return rig;
}

/** Requests a join of `n` costs, and the status it is decided on. */
async function join(r: Rig, n: number): Promise<{ requests: number; status: string | undefined }> {
  const before = r.requests.length;
  const { value: resolution } = await outcome(
    r.clock,
    r.members.resolve(license(n), 'join', { decideOnly: true }),
    100,
  );
  const status = resolution?.kind === 'answer' ? resolution.view?.member.status : undefined;
  return { requests: r.requests.length - before, status };
}

describe('a full read consistent with the audit log', () => {
  it('a member suspended while the first read runs, after their page was read, is not admitted from it', async () => {
    // 1,000 members at 10 mirror requests a minute: the read takes minutes.
    const r = await started({ members: 1000, perMinute: 20 });
    await until(r.clock, () => r.mirrorRequests().length >= 3);
    // Not held by anything yet; the audit log names them while the read runs.
    r.community.members[6]!.status = 'SUSPENDED';
    r.sync.named(['m-6', 'a-6']);
    await until(r.clock, () => r.sync.report().state.kind === 'up');
    // Read again once the read completed: the suspension is decided from the mirror, no request.
    await until(r.clock, () => r.sync.report().deciding && r.cache.lastKnown(license(7)) !== undefined);
    expect(await join(r, 7)).toEqual({ requests: 0, status: 'SUSPENDED' });
    // Members the log did not name are answered from the read as it was.
    expect(await join(r, 8)).toEqual({ requests: 0, status: 'ACTIVE' });
  });

  it('a member named while the read ran whose re-read fails is looked up at their join, not admitted from the read', async () => {
    const r = await started({ members: 300, perMinute: 20 });
    await until(r.clock, () => r.mirrorRequests().length >= 2);
    r.community.members[3]!.status = 'SUSPENDED';
    r.sync.named(['m-3']);
    // The re-read (by license) fails; the full read's lists still answer.
    const base = r.community.handler;
    let lookupsFail = true;
    r.community.handler = (request) =>
      lookupsFail && request.query.has('gameLicense')
        ? { status: 500, body: { success: false, error: { code: 'internal', message: 'boom' } } }
        : base(request);
    await until(r.clock, () => r.sync.report().state.kind === 'up');
    await r.clock.advance(30_000);
    lookupsFail = false;
    const joined = await join(r, 4);
    expect(joined.status).toBe('SUSPENDED');
    expect(joined.requests).toBeGreaterThan(0);
  });
});

describe('a gap in the audit log', () => {
  it('stops the mirror deciding at once and reads the roster again at once, not ten minutes later', async () => {
    const r = await started({ members: 300, perMinute: 20 });
    await until(r.clock, () => r.sync.report().deciding);
    expect((await join(r, 5)).requests).toBe(0);
    const reads = r.mirrorRequests().length;
    r.sync.gap('more than 2000 entries behind');
    expect(r.sync.report()).toMatchObject({ deciding: false, gaps: 1, lastGap: { rereadAt: null } });
    expect((await join(r, 5)).requests).toBeGreaterThan(0);
    // At the mirror's pace (half of the key's minute, spent already by the read just done), not
    // after a spacing of ten minutes.
    await r.clock.advance(60_000);
    expect(r.mirrorRequests().length).toBeGreaterThan(reads);
    await until(r.clock, () => r.sync.report().deciding);
    expect(r.sync.report().lastGap?.rereadAt).not.toBeNull();
    expect((await join(r, 6)).requests).toBe(0);
  });

  it('a read that began before the gap does not end it: the one begun after does', async () => {
    const r = await started({ members: 1000, perMinute: 20 });
    await until(r.clock, () => r.mirrorRequests().length >= 3);
    r.sync.gap('an entry too deep to read');
    await until(r.clock, () => r.sync.report().state.kind === 'up');
    const firstDone = r.sync.report().lastFullReadAt;
    expect(r.sync.report().deciding).toBe(false);
    expect((await join(r, 9)).requests).toBeGreaterThan(0);
    await until(r.clock, () => r.sync.report().deciding);
    expect(r.sync.report().lastFullReadAt).toBeGreaterThan(firstDone!);
  });
});

describe('the last known record', () => {
  it("is the newest of the cache's and the mirror's: a full read that found a suspension wins over an older cached answer", async () => {
    const r = await started({ members: 300, perMinute: 20, passMs: 24 * 3_600_000 });
    await until(r.clock, () => r.sync.report().deciding);
    // Asked fresh: the cache keeps ACTIVE.
    await outcome(r.clock, r.members.fetch(license(5), 'refresh'), 100);
    expect(r.cache.lastKnown(license(5))?.member.status).toBe('ACTIVE');
    await r.clock.advance(60_000);
    // Suspended; no audit entry reaches this server, the next full read finds it.
    r.community.members[4]!.status = 'SUSPENDED';
    await outcome(r.clock, r.sync.resync(), 1000);
    expect(r.cache.lastKnown(license(5))?.member.status).toBe('ACTIVE');
    expect(r.members.lastKnown(license(5))?.member.status).toBe('SUSPENDED');
    // And an answer heard after the read is newer again.
    r.community.members[4]!.status = 'ACTIVE';
    await r.clock.advance(1_000);
    await outcome(r.clock, r.members.fetch(license(5), 'refresh'), 100);
    expect(r.members.lastKnown(license(5))?.member.status).toBe('ACTIVE');
  });

  it("a fresh cached answer older than the mirror's record is not taken while the mirror is not deciding: the service is asked", async () => {
    let inStep = true;
    const r = await started({ members: 300, perMinute: 20 }, () => inStep);
    await until(r.clock, () => r.sync.report().deciding);
    await outcome(r.clock, r.members.fetch(license(5), 'refresh'), 100);
    await r.clock.advance(60_000);
    r.community.members[4]!.status = 'SUSPENDED';
    await outcome(r.clock, r.sync.resync(), 1000);
    // The audit log lags: the mirror does not decide; the cache's answer is fresh but older.
    inStep = false;
    await r.clock.advance(200_000);
    expect(r.sync.report().deciding).toBe(false);
    expect(r.cache.fresh(license(5))?.member.status).toBe('ACTIVE');
    const joined = await join(r, 5);
    expect(joined.status).toBe('SUSPENDED');
    expect(joined.requests).toBeGreaterThan(0);
  });
});
