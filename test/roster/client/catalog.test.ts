import { describe, expect, it } from 'vitest';
import { FakeClock, fakeRoster, ok, outcome, testClient } from './fake-roster';

const departments = Array.from({ length: 150 }, (_, index) => ({
  id: `d${index}`,
  name: `Department ${index}`,
  ...(index % 2 ? { shortName: `D${index}` } : {}),
}));
const ranks = [
  { id: 'r1', departmentId: 'd0', name: 'Chief', position: 1, extra: 'kept out' },
  { id: 'r2', departmentId: 'd0', name: 'Broken' },
];

describe('catalog', () => {
  it('loads every page of departments and ranks once, skips bad records, and reloads after 30 minutes', async () => {
    const clock = new FakeClock();
    let failing = false;
    const { agent, requests } = fakeRoster(clock, (request) => {
      if (failing) return { status: 503, text: 'down' };
      const page = Number(request.query.get('page') ?? 1);
      if (request.path === '/api/v1/departments') {
        return ok(departments.slice((page - 1) * 100, page * 100), {
          pagination: { page, limit: 100, total: 150, total_pages: 2, has_more: page < 2 },
        });
      }
      return ok(ranks, { pagination: { page: 1, limit: 100, total: 2, total_pages: 1, has_more: false } });
    });
    const { api, lines } = testClient(clock, agent);
    const [first, again] = await Promise.all([api.catalog(), api.catalog()]);
    expect(first).toBe(again);
    expect(first.departments).toHaveLength(150);
    expect(first.departments[1]).toEqual({ id: 'd1', name: 'Department 1', shortName: 'D1' });
    expect(first.departments[0]!.shortName).toBeNull();
    expect(first.ranks).toEqual([{ id: 'r1', departmentId: 'd0', name: 'Chief', position: 1 }]);
    expect(lines.some((line) => line.level === 'warn' && line.message.includes('id r2'))).toBe(true);
    expect(requests.map((request) => request.query.get('limit'))).toEqual(['100', '100', '100']);
    expect(requests).toHaveLength(3);

    await clock.advance(29 * 60_000);
    await api.catalog();
    expect(requests).toHaveLength(3);

    await clock.advance(2 * 60_000);
    failing = true;
    const stale = await outcome(clock, api.catalog());
    expect(stale.value).toBe(first); // a failed reload keeps the last catalog
    expect(lines.some((line) => line.level === 'warn' && /keeping the last ones/.test(line.message))).toBe(
      true,
    );
    await api.close();
  });
});
