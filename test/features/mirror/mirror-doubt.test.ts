import { afterEach, describe, expect, it } from 'vitest';
import { fail, license, outcome } from '../../roster/client/fake-roster';
import { firstRun, type Rig } from './restart-rig';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('a member the audit log named, whose re-read fails', () => {
  it('is not decided from the mirror until a re-read answers: the join is looked up, and the answer decides it', async () => {
    const { rig: r, log, feed } = await firstRun();
    rig = r;
    // Suspended in the dashboard; member lookups fail while the audit log still reads.
    r.community.members[4]!.status = 'SUSPENDED';
    log.write('m-4');
    const base = r.community.handler;
    r.community.handler = (request) =>
      request.path === '/api/v1/members' && request.query.has('gameLicense')
        ? fail(500, 'internal')
        : base(request);
    await outcome(r.clock, feed.poll());
    expect(feed.unreadMembers).toBe(1);

    const failed = await outcome(r.clock, r.members.resolve(license(5), 'join', { decideOnly: true }));
    // Not the mirror's ACTIVE record as an answer: the outage policy decides, with it as last known.
    expect(failed.value?.kind).toBe('outage');
    // Another member the log did not name is still decided from the mirror, with no request.
    const before = r.requests.length;
    const other = await r.members.resolve(license(8), 'join', { decideOnly: true });
    expect(other.kind === 'answer' && other.view?.member.id).toBe('m-7');
    expect(r.requests.length).toBe(before);

    r.community.handler = base;
    await outcome(r.clock, feed.poll());
    expect(feed.unreadMembers).toBe(0);
    const from = r.requests.length;
    const answered = await r.members.resolve(license(5), 'join', { decideOnly: true });
    expect(answered.kind === 'answer' && answered.view?.member.status).toBe('SUSPENDED');
    expect(r.requests.length).toBe(from);
  });
});
