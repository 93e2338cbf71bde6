import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockLearning, startMockLearning } from '../../../dev/mock-learning/server';
import { call } from './http';

let mock: MockLearning;
beforeAll(async () => {
  mock = await startMockLearning({ seed: 3, users: 30 });
});
afterAll(() => mock.close());

describe('mock learning courses', () => {
  it('lists published courses only, with the document fields; unlisted ones carry listed: false', async () => {
    const reply = await call(mock, '/courses', { key: mock.keys.read });
    expect(reply.status).toBe(200);
    const titles = reply.json.courses.map((c: { title: string }) => c.title);
    expect(titles).toEqual(['Police Academy', 'Fire Academy', 'EMS First Responder', 'Advanced Driving']);
    expect(titles).not.toContain('Legacy Course');
    for (const course of reply.json.courses) {
      expect(Object.keys(course).sort()).toEqual(
        ['allow_self_enroll', 'description', 'difficulty', 'est_minutes', 'id', 'listed', 'title'].sort(),
      );
      expect(course.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    const driving = reply.json.courses.find((c: { title: string }) => c.title === 'Advanced Driving');
    expect(driving).toMatchObject({ listed: false, difficulty: 'advanced', est_minutes: 90 });
  });

  it('is deterministic per seed', async () => {
    const again = await startMockLearning({ seed: 3, users: 30 });
    try {
      expect((await call(again, '/courses', { key: again.keys.read })).json).toEqual(
        (await call(mock, '/courses', { key: mock.keys.read })).json,
      );
      expect(again.keys.read).toBe(mock.keys.read);
    } finally {
      await again.close();
    }
  });
});

describe('mock learning completions', () => {
  it('returns { completions: [{ user_sub, course_id, completed_at }] } oldest first, whole by default', async () => {
    const reply = await call(mock, '/completions', { key: mock.keys.read });
    expect(reply.json.completions.length).toBe(mock.data.completions.length);
    expect(reply.json).toMatchObject({ page: 1, has_more: false, next_page: null });
    for (const c of reply.json.completions) {
      expect(Object.keys(c).sort()).toEqual(['completed_at', 'course_id', 'user_sub']);
      expect(c.completed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    const times = reply.json.completions.map((c: { completed_at: string }) => c.completed_at);
    expect([...times].sort()).toEqual(times);
  });

  it('pages when asked (?limit) or when the server cuts pages (paging), so a client must follow next_page', async () => {
    const total = mock.data.completions.length;
    const first = await call(mock, '/completions?limit=5');
    expect(first.json).toMatchObject({ page: 1, limit: 5, has_more: true, next_page: 2 });
    expect(first.json.completions).toHaveLength(5);
    mock.faults.paging(7);
    try {
      const seen: unknown[] = [];
      let page: number | null = 1;
      while (page !== null) {
        const reply = await call(mock, `/completions?page=${page}`);
        seen.push(...reply.json.completions);
        page = reply.json.next_page;
      }
      expect(seen).toHaveLength(total);
      expect(seen).toEqual((await call(mock, `/completions?limit=500`)).json.completions);
    } finally {
      mock.faults.paging(null);
    }
  });

  it('filters with ?since and rejects bad paging values with 422 naming the parameter', async () => {
    const all = mock.data.completions;
    const middle = all[Math.floor(all.length / 2)]!.completed_at;
    const reply = await call(mock, `/completions?since=${encodeURIComponent(middle)}`);
    expect(reply.json.completions.every((c: { completed_at: string }) => c.completed_at > middle)).toBe(true);
    for (const [query, field] of [
      ['page=0', 'page'],
      ['limit=abc', 'limit'],
      ['limit=501', 'limit'],
      ['since=yesterday', 'since'],
    ]) {
      const bad = await call(mock, `/completions?${query}`);
      expect(bad.status).toBe(422);
      expect(bad.json.error).toMatchObject({ code: 'validation_error', details: { field } });
    }
  });

  it('summarises enrollments organisation-wide', async () => {
    const reply = await call(mock, '/enrollments/summary');
    expect(reply.json.total).toBe(mock.data.enrollments.length);
    const { assigned, in_progress, completed } = reply.json.by_status;
    expect(assigned + in_progress + completed).toBe(reply.json.total);
  });
});
