import { describe, expect, it } from 'vitest';
import { ClaimedLicenses } from '../../../src/roster/claimed-licenses';
import {
  FakeClock,
  type FakeRequest,
  fakeRoster,
  license,
  ok,
  outcome,
  recordingLogger,
  testClient,
} from './fake-roster';

interface Row {
  id: string;
  status: string;
  gameLicense: string;
  createdAt?: string;
  departmentAssignments?: unknown[];
}

const OLD = '2023-03-01T10:00:00.000Z';
const NEW = '2025-06-01T10:00:00.000Z';

/** A returning member: the old TERMINATED membership and the new ACTIVE one, on one license. */
const terminated = (n = 1, createdAt: string | undefined = OLD, id = 'mem_old'): Row => ({
  id,
  status: 'TERMINATED',
  gameLicense: license(n),
  ...(createdAt === undefined ? {} : { createdAt }),
});
const active = (n = 1, createdAt: string | undefined = NEW, id = 'mem_new'): Row => ({
  id,
  status: 'ACTIVE',
  gameLicense: license(n),
  ...(createdAt === undefined ? {} : { createdAt }),
});

/**
 * Lists `rows` for the licenses asked for, in the order given (the order the service chose), 100
 * a page (`pageSize` when smaller); assignments are answered empty.
 */
function listing(rows: Row[], pageSize = 100) {
  return (request: FakeRequest) => {
    if (request.path !== '/api/v1/members') return ok([]);
    const wanted = new Set(request.query.getAll('gameLicense'));
    const found = rows.filter((row) => wanted.has(row.gameLicense));
    const limit = Math.min(Number(request.query.get('limit') ?? 100), pageSize);
    const page = Number(request.query.get('page') ?? 1);
    const pages = Math.max(1, Math.ceil(found.length / limit));
    return ok(found.slice((page - 1) * limit, page * limit), {
      pagination: { page, limit, total: found.length, total_pages: pages, has_more: page < pages },
    });
  };
}

function client(rows: Row[], pageSize?: number) {
  const clock = new FakeClock();
  const { agent, requests } = fakeRoster(clock, listing(rows, pageSize));
  const { logger, lines } = recordingLogger();
  const claims = new ClaimedLicenses(logger);
  const { api } = testClient(clock, agent, { claims });
  const warnings = () => lines.filter((line) => line.level === 'warn').map((line) => line.message);
  return { clock, api, claims, requests, warnings };
}

describe('one license, several members: the most recent membership decides', () => {
  for (const [order, rows] of [
    ['the old membership listed first', [terminated(), active()]],
    ['the new membership listed first', [active(), terminated()]],
  ] as const) {
    it(`admits the returning member's new ACTIVE record with ${order}`, async () => {
      const { api, claims } = client([...rows]);
      const found = await api.member(license(1), 'join');
      expect(found?.member).toMatchObject({ id: 'mem_new', status: 'ACTIVE', createdAt: NEW });
      expect(claims.list()).toEqual([
        { license: license(1), memberIds: ['mem_new', 'mem_old'], members: 2, deciding: 'mem_new' },
      ]);
      await api.close();
    });
  }

  it('with the same createdAt, the greater id decides (as numbers when both are), in either order', async () => {
    for (const rows of [
      [terminated(1, OLD, '9'), active(1, OLD, '10')],
      [active(1, OLD, '10'), terminated(1, OLD, '9')],
    ]) {
      const { api } = client(rows);
      expect((await api.member(license(1), 'join'))?.member.id).toBe('10');
      await api.close();
    }
  });

  it('a membership without a readable createdAt counts as the oldest', async () => {
    for (const rows of [
      [active(1, NEW), terminated(1, undefined)],
      [terminated(1, 'not a date'), active(1, NEW)],
    ]) {
      const { api } = client(rows);
      expect((await api.member(license(1), 'join'))?.member.id).toBe('mem_new');
      await api.close();
    }
    // Neither stamped: the greater id, whatever the order listed.
    for (const rows of [
      [terminated(1, undefined, 'mem_a'), active(1, undefined, 'mem_b')],
      [active(1, undefined, 'mem_b'), terminated(1, undefined, 'mem_a')],
    ]) {
      const { api } = client(rows);
      expect((await api.member(license(1), 'join'))?.member.id).toBe('mem_b');
      await api.close();
    }
  });

  it('the deciding record brings its own inline assignments, not the old membership’s', async () => {
    const old = {
      ...terminated(),
      departmentAssignments: [{ id: 'as_old', departmentId: 'd1', rankId: null }],
    };
    const fresh = {
      ...active(),
      departmentAssignments: [{ id: 'as_new', departmentId: 'd2', rankId: null }],
    };
    const { api } = client([old, fresh]);
    const found = await api.lookup(license(1), 'join');
    expect(found?.member.id).toBe('mem_new');
    expect(found?.assignments.map((a) => [a.id, a.memberId])).toEqual([['as_new', 'mem_new']]);
    await api.close();
  });

  it('the same member listed twice is one membership, not a claim', async () => {
    const { api, claims, warnings } = client([active(), active()]);
    expect((await api.member(license(1), 'join'))?.member.id).toBe('mem_new');
    expect(claims.list()).toEqual([]);
    expect(warnings()).toEqual([]);
    await api.close();
  });

  it('warns once per license, across lookups, and lists every license claimed', async () => {
    const { api, clock, claims, warnings } = client([terminated(1), active(1), active(2), terminated(2)]);
    await outcome(clock, Promise.all([api.member(license(1), 'join'), api.member(license(2), 'join')]));
    await api.member(license(1), 'refresh');
    await api.member(license(1), 'join');
    expect(warnings().filter((w) => w.includes(license(1)))).toHaveLength(1);
    expect(warnings().filter((w) => w.includes(license(2)))).toHaveLength(1);
    expect(claims.list().map((claim) => claim.license)).toEqual([license(1), license(2)]);
    await api.close();
  });

  it('a second membership past a full page of 100 licenses is read, and it decides', async () => {
    // 100 licenses and 101 records: the new membership of license 0 is the 101st, on page 2.
    const rows: Row[] = [terminated(0)];
    for (let n = 1; n < 100; n++) rows.push({ ...active(n), id: `mem_${n}` });
    rows.push(active(0));
    const { api, clock, requests } = client(rows);
    const { value } = await outcome(
      clock,
      Promise.all(Array.from({ length: 100 }, (_, n) => api.member(license(n), 'refresh'))),
    );
    expect(value?.[0]?.member).toMatchObject({ id: 'mem_new', status: 'ACTIVE' });
    expect(value?.every((found) => found?.member.status === 'ACTIVE')).toBe(true);
    const pages = requests.filter((r) => r.path === '/api/v1/members').map((r) => r.query.get('page') ?? '1');
    expect(pages).toEqual(['1', '2']);
    await api.close();
  });

  it('100 licenses without a second membership still take one request', async () => {
    const rows = Array.from({ length: 100 }, (_, n) => ({ ...active(n), id: `mem_${n}` }));
    const { api, clock, requests } = client(rows);
    await outcome(clock, Promise.all(rows.map((_, n) => api.member(license(n), 'refresh'))));
    expect(requests.filter((r) => r.path === '/api/v1/members')).toHaveLength(1);
    await api.close();
  });

  it('an unreadable record beside a readable one leaves the license unknown: it may be the newest', async () => {
    const { api, clock } = client([
      active(1),
      { id: 'mem_bad', status: null as unknown as string, gameLicense: license(1) },
      active(2, NEW, 'mem_two'),
    ]);
    const answers = await api.lookupMany([license(1), license(2)], 'refresh');
    expect(answers.has(license(1))).toBe(false);
    expect(answers.get(license(2))?.member.id).toBe('mem_two');
    const { error } = await outcome(clock, api.member(license(1), 'refresh'));
    expect(error).toMatchObject({ code: 'malformed_response' });
    await api.close();
  });

  it('more records than a lookup reads for its licenses: none of them is decided', async () => {
    // One license listed by 100 members (a service ignoring the filter, or worse): the read may
    // have stopped short of the newest membership, so nothing is "not on the roster" or admitted.
    const rows = Array.from({ length: 150 }, (_, n) => ({ ...terminated(1), id: `mem_${n}` }));
    const { api, clock } = client(rows);
    const { error } = await outcome(clock, api.member(license(1), 'join'));
    expect(error).toMatchObject({ code: 'malformed_response' });
    await api.close();
  });
});
