import { describe, expect, it } from 'vitest';
import { FakeClock, fakeRoster, license, ok, outcome, testClient } from './fake-roster';

/** A service whose lists always say another page follows. */
const endless = (page: number) => ({ page, limit: 100, has_more: true, total_pages: page + 1 });

describe('endless pagination', () => {
  it('a lookup of up to 100 licenses never asks for a second page', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, (request) =>
      ok([], { pagination: endless(Number(request.query.get('page') ?? 1)) }),
    );
    const { api } = testClient(clock, agent);
    const wanted = Array.from({ length: 100 }, (_, i) => license(i + 1));
    const result = await outcome(clock, api.lookupMany(wanted), 100);
    expect(result.error).toBeUndefined();
    expect(requests.filter((r) => r.path === '/api/v1/members')).toHaveLength(1);
    await api.close();
  });

  it('other lists stop at their bound and say so once', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, (request) => {
      const page = Number(request.query.get('page') ?? 1);
      return ok([{ id: `d${page}`, name: `Department ${page}` }], { pagination: endless(page) });
    });
    const { api, lines } = testClient(clock, agent, { perMinute: 6000 });
    const first = await outcome(clock, api.catalog(), 100);
    expect(first.error).toBeUndefined();
    expect(requests.filter((r) => r.path === '/api/v1/departments')).toHaveLength(20);
    await outcome(clock, api.catalog({ force: true }), 100);
    const cut = lines.filter((l) => /keeps saying more pages of GET \/api\/v1\/departments/.test(l.message));
    expect(cut).toHaveLength(1);
    expect(cut[0]!.message).toMatch(/stopped after 20 pages/);
    await api.close();
  });

  it('an empty page ends a list whatever it claims', async () => {
    const clock = new FakeClock();
    const { agent, requests } = fakeRoster(clock, (request) => {
      const page = Number(request.query.get('page') ?? 1);
      return ok(page < 3 ? [{ id: `d${page}`, name: `D ${page}` }] : [], { pagination: endless(page) });
    });
    const { api } = testClient(clock, agent, { perMinute: 6000 });
    expect((await outcome(clock, api.catalog(), 100)).value?.departments).toHaveLength(2);
    expect(requests.filter((r) => r.path === '/api/v1/departments')).toHaveLength(3);
    await api.close();
  });
});

describe('unreadable records', () => {
  it('many unreadable records in one answer are one warning with a count', async () => {
    const clock = new FakeClock();
    const broken = Array.from({ length: 250 }, (_, i) => ({ id: `r${i}`, name: `Rank ${i}` }));
    const { agent } = fakeRoster(clock, (request) =>
      request.path === '/api/v1/ranks'
        ? ok(broken.slice(0, 100), { pagination: { page: 1, limit: 100, has_more: false } })
        : ok([{ id: 'd1', name: 'D1' }], { pagination: { page: 1, limit: 100, has_more: false } }),
    );
    const { api, lines } = testClient(clock, agent);
    await outcome(clock, api.catalog(), 100);
    const skipped = lines.filter((l) => /Skipped/.test(l.message));
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.message).toMatch(/Skipped 100 rank records .*first: id r0/);
    await api.close();
  });
});
