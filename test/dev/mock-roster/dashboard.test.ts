import { afterEach, describe, expect, it } from 'vitest';
import { AUDIT_SHAPES, auditShapeAt } from '../../../dev/mock-roster/audit-shapes';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { call } from './http';

let mock: MockRoster | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('mock roster dashboard audit entries', () => {
  it('takes every shape in any five changes in a row, in an order fixed by the seed', () => {
    for (const seed of [1, 7, 42]) {
      for (let start = 0; start < 10; start++) {
        const shapes = new Set(Array.from({ length: 5 }, (_, n) => auditShapeAt(seed, start + n)));
        expect(shapes.size).toBe(AUDIT_SHAPES.length);
      }
    }
    const order = (seed: number) => Array.from({ length: 5 }, (_, n) => auditShapeAt(seed, n)).join();
    expect(order(7)).toBe(order(7));
    expect(new Set([1, 2, 3, 4, 5, 6, 7].map(order)).size).toBeGreaterThan(1);
  });

  it('each entry has an id and a createdAt, names what changed, and is listed by the API', async () => {
    mock = await startMockRoster({ members: 50, seed: 7, now: () => Date.UTC(2025, 5, 2, 12) });
    const member = mock.data.memberWithStatus('ACTIVE');
    const seen = new Set<string>();
    for (const status of ['LOA', 'ACTIVE', 'INACTIVE', 'ACTIVE', 'LOA'] as const) {
      const shape = mock.dashboard.nextShape;
      mock.dashboard.setStatus(member.id, status);
      const { entry } = mock.dashboard.last!;
      expect(mock.dashboard.last!.shape).toBe(shape);
      seen.add(shape);
      expect(entry).toMatchObject({
        id: expect.stringMatching(/^aud_/),
        createdAt: '2025-06-02T12:00:00.000Z',
      });
      expect(JSON.stringify(entry)).toContain(`"${member.id}"`);
      expect(JSON.stringify(entry)).toContain(`"${status}"`);
    }
    expect(seen.size).toBe(5);
    const listed = await call(mock, '/api/v1/audit-logs?sort=-createdAt&limit=5');
    expect(listed.json.data.map((e: { id: string }) => e.id)).toHaveLength(5);
  });

  it('an entry of a rank change in the metadata shape names the member, not the assignment', async () => {
    mock = await startMockRoster({ members: 50, seed: 7 });
    const member = mock.data.memberWithStatus('ACTIVE');
    const assignment = mock.data.assignmentsOf(member.id)[0]!;
    const other = mock.data.data.ranks.find(
      (r) => r.departmentId === assignment.departmentId && r.id !== assignment.rankId,
    )!;
    while (mock.dashboard.nextShape !== 'metadata')
      mock.dashboard.setStatus(member.id, member.status === 'LOA' ? 'ACTIVE' : 'LOA');
    mock.dashboard.setRank(member.id, other.id);
    const text = JSON.stringify(mock.dashboard.last!.entry);
    expect(mock.dashboard.last!.entry).toMatchObject({ metadata: { memberId: member.id } });
    expect(text).not.toContain(assignment.id);
  });

  it('duty sessions: stored late, corrected and deleted, each correction listed as the API lists it', async () => {
    const now = Date.UTC(2025, 5, 2, 12);
    mock = await startMockRoster({ members: 50, seed: 7, now: () => now });
    const member = mock.data.memberWithStatus('ACTIVE');
    const late = mock.data.addDutySession(member.id, now - 3 * 3_600_000, 180, { storedAt: now });
    expect(late).toMatchObject({
      startedAt: '2025-06-02T09:00:00.000Z',
      stoodDownAt: '2025-06-02T12:00:00.000Z',
      onDutySeconds: 10_800,
      createdAt: '2025-06-02T12:00:00.000Z',
    });
    const stored = await call(
      mock,
      `/api/v1/duty-sessions?rosterRef=${member.id}&createdAt.after=2025-06-02T11:00:00Z`,
    );
    expect(stored.json.data.map((s: { id: string }) => s.id)).toEqual([late.id]);

    mock.dashboard.setDutySessionLength(late.id, 60);
    expect(mock.data.dutySession(late.id)).toMatchObject({
      stoodDownAt: '2025-06-02T10:00:00.000Z',
      onDutySeconds: 3600,
    });
    expect(JSON.stringify(mock.dashboard.last!.entry)).toContain(member.id);
    mock.dashboard.deleteDutySession(late.id);
    expect(mock.data.dutySession(late.id)).toBeUndefined();
    expect(JSON.stringify(mock.dashboard.last!.entry)).toContain(member.id);
    const again = mock.data.addDutySession(member.id, now, null);
    expect(again.id).not.toBe(late.id);
  });
});
