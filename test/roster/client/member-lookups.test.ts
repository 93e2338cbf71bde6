import { describe, expect, it } from 'vitest';
import {
  joinHoldMs,
  LOOKUP_HOLD_MS,
  MEMBERS_PER_ASSIGNMENTS_REQUEST,
} from '../../../src/roster/client/member-lookups';
import { maxInAnyWindow } from '../../http/limiter/fake-clock';
import { FakeClock, fakeRoster, license, outcome, testClient } from './fake-roster';
import { rosterHandler, type SeedMember } from './roster-data';

const seed = (count: number, extra: Partial<SeedMember> = {}): SeedMember[] =>
  Array.from({ length: count }, (_, index) => ({ id: `m${index}`, gameLicense: license(index), ...extra }));

describe('lookup by license', () => {
  it('a lone lookup on an idle client goes out at once, with no batching window', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(3)));
    const { api } = testClient(clock, agent);
    const start = clock.now();
    const found = await api.lookup(license(1));
    expect(clock.now()).toBe(start); // no fake time had to pass
    expect(found?.member).toEqual({ id: 'm1', status: 'ACTIVE', gameLicense: license(1), name: 'Member m1' });
    expect(found?.assignments).toEqual([
      {
        id: 'as_m1',
        memberId: 'm1',
        departmentId: 'd_lspd',
        rankId: 'r_sgt',
        isPrimary: true,
        callsign: '1-A-12',
        rank: { id: 'r_sgt', departmentId: 'd_lspd', name: 'Sergeant', position: 3 },
      },
    ]);
    expect(requests.map((request) => request.path)).toEqual([
      '/api/v1/members',
      '/api/v1/department-assignments',
    ]);
    expect(requests[0]!.query.getAll('gameLicense')).toEqual([license(1)]);
    expect(requests[0]!.query.get('limit')).toBe('100');
    expect(requests[1]!.query.getAll('memberId')).toEqual(['m1']);
    expect(requests[1]!.query.get('include')).toBe('rank');
    await api.close();
  });

  it('not on the roster is a successful null, and skips the assignments call', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(1)));
    const { api } = testClient(clock, agent);
    await expect(api.lookup(license(99))).resolves.toBeNull();
    await expect(api.lookup('steam:110000100000000')).resolves.toBeNull();
    expect(requests.length).toBe(1);
    await api.close();
  });

  it('coalesces 10 concurrent lookups of one license into one request', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(2)));
    const { api } = testClient(clock, agent);
    const lookups = Array.from({ length: 10 }, (_, index) =>
      api.lookup(index % 2 ? license(1) : license(1).toUpperCase().replace('LICENSE', 'license'), 'join'),
    );
    const answers = await Promise.all(lookups);
    expect(new Set(answers.map((answer) => answer?.member.id))).toEqual(new Set(['m1']));
    expect(requests.filter((request) => request.path === '/api/v1/members').length).toBe(1);
    await api.close();
  });

  it('merges licenses waiting for the limiter into one request with repeated gameLicense', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(60)));
    const { api } = testClient(clock, agent, { perMinute: 12 }); // burst of 1
    const first = api.lookup(license(0));
    await clock.advance(0);
    const rest = Array.from({ length: 59 }, (_, index) => api.lookup(license(index + 1), 'refresh'));
    const { value } = await outcome(clock, Promise.all(rest));
    await expect(first).resolves.not.toBeNull();
    expect(value?.every((answer, index) => answer?.member.id === `m${index + 1}`)).toBe(true);
    const memberCalls = requests.filter((request) => request.path === '/api/v1/members');
    expect(memberCalls.length).toBe(2);
    expect(memberCalls[1]!.query.getAll('gameLicense')).toHaveLength(59);
    await api.close();
  });

  it('matches licenses case-insensitively', async () => {
    const clock = new FakeClock();
    const stored = `license:${'ABCDEF0123'.repeat(4)}`;
    const { agent } = fakeRoster(clock, rosterHandler([{ id: 'm1', gameLicense: stored }]));
    const { api } = testClient(clock, agent);
    expect((await api.lookup(stored.toLowerCase()))?.member.id).toBe('m1');
    await api.close();
  });

  it('uses inline departmentAssignments and skips the second call', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(3, { inline: true })));
    const { api } = testClient(clock, agent);
    const found = await api.lookup(license(2));
    expect(found?.assignments.map((each) => each.id)).toEqual(['as_m2']);
    expect(found?.member.departmentAssignments?.map((each) => each.rank?.name)).toEqual(['Sergeant']);
    expect(requests.map((request) => request.path)).toEqual(['/api/v1/members']);
    await api.close();
  });

  it('follows pagination of members and assignments', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(30), { pageSize: 10 }));
    const { api } = testClient(clock, agent);
    const licenses = Array.from({ length: 30 }, (_, index) => license(index));
    const { value } = await outcome(clock, api.lookupMany(licenses, 'refresh'));
    expect([...(value?.values() ?? [])].every((answer) => answer !== null)).toBe(true);
    expect(value?.get(license(29))?.assignments).toHaveLength(1);
    const pages = requests.map((request) => `${request.path}#${request.query.get('page') ?? '1'}`);
    expect(pages.filter((page) => page.startsWith('/api/v1/members'))).toEqual([
      '/api/v1/members#1',
      '/api/v1/members#2',
      '/api/v1/members#3',
    ]);
    expect(pages.filter((page) => page.startsWith('/api/v1/department-assignments'))).toHaveLength(3);
    await api.close();
  });

  it('an unreadable member record is an error for that license only, never "not on the roster"', async () => {
    const clock = new FakeClock();
    const { agent } = fakeRoster(clock, (request) =>
      request.path === '/api/v1/members'
        ? {
            body: {
              success: true,
              data: [
                { id: 'bad1', status: null, gameLicense: license(1) },
                {
                  id: 'm2',
                  status: 'ACTIVE',
                  gameLicense: license(2),
                  name: 'Two',
                  departmentAssignments: [],
                },
                { id: 'm3', status: 'ACTIVE', gameLicense: license(3), departmentAssignments: [] },
              ],
              meta: { request_id: 'r1' },
            },
          }
        : { body: { success: true, data: [] } },
    );
    const { api, lines } = testClient(clock, agent);
    const answers = await api.lookupMany([license(1), license(2), license(3)], 'refresh');
    expect(answers.has(license(1))).toBe(false);
    expect(answers.get(license(2))?.member.name).toBe('Two');
    // Without displayName or name, the member is still a member, shown by id.
    expect(answers.get(license(3))?.member.name).toBe('m3');
    const { error } = await outcome(clock, api.lookup(license(1), 'refresh'));
    expect(error).toMatchObject({ code: 'malformed_response' });
    expect(lines.some((line) => line.level === 'warn' && line.message.includes('id bad1'))).toBe(true);
    await api.close();
  });

  it('a storm of 1,000 licenses in 10 s takes at most ~30 requests and stays under the limit', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(1000)));
    const { api } = testClient(clock, agent);
    const answers: Array<Promise<unknown>> = [];
    for (let index = 0; index < 1000; index++) {
      answers.push(api.lookup(license(index), 'join'));
      if (index % 100 === 99) await clock.advance(1000);
    }
    const { value, error } = await outcome(clock, Promise.all(answers));
    expect(error).toBeUndefined();
    expect((value as unknown[]).every((answer) => answer !== null)).toBe(true);
    expect(requests.length).toBeLessThanOrEqual(30);
    expect(
      maxInAnyWindow(
        requests.map((request) => request.at),
        60_000,
      ),
    ).toBeLessThanOrEqual(120);
    await api.close();
  });
});

describe('lanes and waiting', () => {
  it('a join lookup of a license waiting in the background lane moves it up', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(5, { inline: true })));
    const { api } = testClient(clock, agent, { perMinute: 4 });
    await api.lookup(license(0)); // spends the burst (a quarter of the minute: one)
    let background = false;
    void api.lookup(license(1), 'background').then(() => {
      background = true;
    });
    void api.lookup(license(2), 'refresh');
    expect(api.limiterState().queued).toEqual({ join: 0, write: 0, refresh: 1, background: 1 });
    const joined = api.lookup(license(1), 'join');
    expect(api.limiterState().queued).toEqual({ join: 1, write: 0, refresh: 1, background: 0 });
    expect(api.estimateWaitMs('join')).toBeLessThanOrEqual(api.estimateWaitMs('background'));
    const { value } = await outcome(clock, joined);
    expect(value).not.toBeNull();
    expect(background).toBe(true); // same promise: one request served both
    // The join batch also took the refresh license waiting: one request for both.
    expect(requests[1]!.query.getAll('gameLicense')).toEqual([license(1), license(2)]);
    await api.close();
  });
});

describe('joins waiting, as the limiter state tells the mirror', () => {
  it('counts join lookups held back to be sent together and those waiting for a permit, none once answered', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(12)));
    const { api } = testClient(clock, agent);
    expect(api.limiterState().joinsWaiting).toBe(0);
    const first = api.lookup(license(0), 'join');
    await clock.advance(10);
    // A storm: the next licenses are held for one request, not queued at the limiter.
    const rest = Array.from({ length: 10 }, (_, index) => api.lookup(license(index + 1), 'join'));
    expect(api.limiterState().queued.join).toBe(0);
    expect(api.limiterState().joinsWaiting).toBe(10);
    // A refresh or background lookup is no join.
    const background = api.lookup(license(11), 'background');
    expect(api.limiterState().joinsWaiting).toBe(10);
    const { value } = await outcome(clock, Promise.all([first, ...rest, background]));
    expect((value as unknown[]).every((answer) => answer !== null)).toBe(true);
    expect(requests.length).toBeGreaterThan(1);
    expect(api.limiterState().joinsWaiting).toBe(0);
    await api.close();
  });
});

describe('estimated wait', () => {
  it('grows with the licenses waiting ahead, so a player in a storm is told a fair wait', async () => {
    const clock = new FakeClock();
    const { agent } = fakeRoster(clock, rosterHandler(seed(1)));
    const { api } = testClient(clock, agent);
    expect(api.estimateWaitMs('join')).toBe(0);
    const pending = Array.from({ length: 1000 }, (_, index) => api.lookup(license(index), 'join'));
    const early = api.estimateWaitMs('join');
    expect(early).toBeGreaterThanOrEqual(8 * 2 * 500);
    expect(early).toBeLessThanOrEqual(60_000);
    await outcome(clock, Promise.all(pending));
    await api.close();
  });
});

describe('batching under load', () => {
  it('holds a small batch while the lane has just sent, then sends it whole', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(12)));
    const { api } = testClient(clock, agent);
    const first = api.member(license(0));
    await clock.advance(10);
    const rest = Array.from({ length: 10 }, (_, index) => api.member(license(index + 1)));
    await clock.advance(LOOKUP_HOLD_MS - 100);
    expect(requests.filter((r) => r.path === '/api/v1/members')).toHaveLength(1);
    await clock.advance(200);
    const { value } = await outcome(clock, Promise.all([first, ...rest]));
    expect(value?.every((found) => found !== null)).toBe(true);
    const calls = requests.filter((r) => r.path === '/api/v1/members');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.query.getAll('gameLicense')).toHaveLength(10);
    await api.close();
  });

  it('with a short gate, join lookups are held a fifteenth of it; refreshes keep the full hold', async () => {
    expect(joinHoldMs(15_000)).toBe(LOOKUP_HOLD_MS);
    expect(joinHoldMs(60_000)).toBe(LOOKUP_HOLD_MS);
    expect(joinHoldMs(1500)).toBe(100);
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(30)));
    const { api } = testClient(clock, agent, { joinHoldMs: joinHoldMs(1500) });
    const members = () => requests.filter((r) => r.path === '/api/v1/members');
    const first = api.member(license(0), 'join');
    await clock.advance(10);
    const joins = Array.from({ length: 5 }, (_, index) => api.member(license(index + 1), 'join'));
    await clock.advance(89);
    expect(members()).toHaveLength(1); // still held
    await clock.advance(2);
    expect(members()).toHaveLength(2); // the join hold (100 ms) is over
    await outcome(clock, Promise.all([first, ...joins]));

    const refreshFirst = api.member(license(10), 'refresh');
    await clock.advance(10);
    const refreshes = Array.from({ length: 5 }, (_, index) => api.member(license(index + 11), 'refresh'));
    await clock.advance(200);
    expect(members()).toHaveLength(3); // the refresh lane keeps the full hold
    await clock.advance(LOOKUP_HOLD_MS);
    expect(members()).toHaveLength(4);
    await outcome(clock, Promise.all([refreshFirst, ...refreshes]));
    await api.close();
  });

  it('a lookup after a quiet spell goes out at once', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(3)));
    const { api } = testClient(clock, agent);
    await api.member(license(0), 'refresh');
    await clock.advance(LOOKUP_HOLD_MS + 1);
    const start = clock.now();
    await api.member(license(1), 'refresh');
    expect(clock.now()).toBe(start);
    expect(requests).toHaveLength(2);
    await api.close();
  });

  it('does not hold joins one after another on a quiet server: each goes at once, in full', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(10)));
    const { api } = testClient(clock, agent);
    const connects: number[] = [];
    for (let index = 0; index < 10; index++) {
      await clock.advance(150); // the next player connects as the one before is let in
      connects.push(clock.now());
      const { value: found } = await outcome(clock, api.lookup(license(index), 'join'), 1);
      expect(found?.assignments).toHaveLength(1);
    }
    // Two requests a join, both sent the moment the player connects: nothing held or paced.
    expect(requests.map((r) => r.at)).toEqual(connects.flatMap((at) => [at, at]));
    await api.close();
  });

  it("in the join lane a batch's assignments go out the moment its members answer, in one request", async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(40)));
    const { api } = testClient(clock, agent, {
      joinNeedsDepartments: (member) => member.id !== 'm3',
    });
    // As the gate asks: the member, then (for a status it admits) their assignments.
    const join = async (n: number) => {
      const found = await api.member(license(n), 'join');
      if (found === null || found.member.id === 'm3') return found?.assignments ?? null;
      return api.assignmentsOf(found.member.id, 'join');
    };
    const first = join(0);
    await clock.advance(10);
    // A storm: these are held and go as one batch...
    const rest = Array.from({ length: 30 }, (_, index) => join(index + 1));
    const { value } = await outcome(clock, Promise.all([first, ...rest]));
    expect(value?.filter((list) => list !== null && list.length === 1)).toHaveLength(30);
    const paths = requests.map(
      (r) =>
        `${r.path.slice(8)}:${r.query.getAll(r.path.endsWith('members') ? 'gameLicense' : 'memberId').length}`,
    );
    // ...and their assignments right behind them, none held for a later batch; m3 (a status the
    // gate refuses) is not asked for by the batch.
    expect(paths).toEqual([
      'members:1',
      'department-assignments:1',
      'members:30',
      'department-assignments:29',
    ]);
    const last = requests.at(-1)!;
    const members = requests.at(-2)!;
    expect(last.at - members.at).toBeLessThan(LOOKUP_HOLD_MS / 10);
    expect(last.query.getAll('memberId')).not.toContain('m3');
    await api.close();
  });

  it('member() answers from the members request alone; assignments of several members share one request', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(5)));
    const { api } = testClient(clock, agent);
    const found = await api.member(license(0), 'refresh');
    expect(found).toMatchObject({ member: { id: 'm0', status: 'ACTIVE' }, assignments: null });
    expect(requests.map((r) => r.path)).toEqual(['/api/v1/members']);
    const lists = Array.from({ length: 4 }, (_, index) => api.assignmentsOf(`m${index + 1}`, 'refresh'));
    const { value } = await outcome(clock, Promise.all(lists));
    expect(value?.map((list) => list[0]?.memberId)).toEqual(['m1', 'm2', 'm3', 'm4']);
    const assignmentCalls = requests.filter((r) => r.path === '/api/v1/department-assignments');
    expect(assignmentCalls).toHaveLength(1);
    expect(assignmentCalls[0]!.query.getAll('memberId')).toEqual(['m1', 'm2', 'm3', 'm4']);
    await api.close();
  });

  it('asks for at most 75 members per assignments request, to stay within one page', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, rosterHandler(seed(200)));
    const { api } = testClient(clock, agent);
    const ids = Array.from({ length: 200 }, (_, index) => `m${index}`);
    await outcome(clock, Promise.all(ids.map((id) => api.assignmentsOf(id, 'refresh'))));
    const sizes = requests.map((r) => r.query.getAll('memberId').length);
    expect(Math.max(...sizes)).toBe(MEMBERS_PER_ASSIGNMENTS_REQUEST);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(200);
    await api.close();
  });
});
