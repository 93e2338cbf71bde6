import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockAssignment } from '../../../dev/mock-roster/records';
import type { MockRoster } from '../../../dev/mock-roster/server';
import { eventually, type Harness, startHarness } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ASSIGNMENTS = '/api/v1/department-assignments';
const mirrored = (harness: Harness) =>
  eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 15_000);

/** The assignments in the order the service lists them with `sort=createdAt` (ties keep their order). */
function inCreatedOrder(mock: MockRoster): MockAssignment[] {
  return [...mock.data.data.assignments].sort((a, b) =>
    a.createdAt === b.createdAt ? 0 : a.createdAt < b.createdAt ? -1 : 1,
  );
}

describe('lists read by a key a change cannot shift', () => {
  it('a department transfer during the full read leaves no other assignment unread: that member is admitted from the mirror with their department', async () => {
    // 300 members hold about 360 assignments: four pages of 100.
    let victim: MockAssignment | undefined;
    let allowed = '';
    let moved: MockAssignment | undefined;
    let movedTo = '';
    let transferred = false;
    h = await startHarness({
      members: 300,
      beforeStart: (mock, folder) => {
        const listed = inCreatedOrder(mock);
        // The first assignment of the second page decides whether its member may join.
        const found = listed[100]!;
        victim = found;
        mock.data.setMemberStatus(found.memberId, 'ACTIVE');
        const department = mock.data.data.departments.find((d) => d.id === found.departmentId)!;
        allowed = department.shortName;
        const config = { gate: { departments: [allowed] } };
        writeFileSync(join(folder, 'config.json'), JSON.stringify(config));
        moved = listed[10]!;
        const from = moved;
        const holds = new Set(mock.data.assignmentsOf(from.memberId).map((a) => a.departmentId));
        movedTo = mock.data.data.departments.find((d) => !holds.has(d.id))!.id;
        let fullReads = 0;
        mock.data.beforeList = ({ path, query }) => {
          if (path !== ASSIGNMENTS || query.has('memberId') || transferred) return;
          // The second request of the whole list: the first page has been read.
          if (++fullReads < 2) return;
          transferred = true;
          // A member moves from one department to another: one assignment on the page already
          // read is deleted, another is created.
          const { data } = mock.data;
          data.assignments = data.assignments.filter((a) => a.id !== from.id);
          const now = new Date().toISOString();
          data.assignments.push({
            ...from,
            id: 'asg_transfer_1',
            departmentId: movedTo,
            rankId: mock.data.data.ranks.find((r) => r.departmentId === movedTo)!.id,
            createdAt: now,
            updatedAt: now,
          });
        };
      },
    });
    await mirrored(h);
    expect(transferred).toBe(true);
    const member = h.mock.data.member(victim!.memberId)!;
    const before = h.mock.counters.total;
    const decision = await h.server.connectPlayer({ name: 'Victim', identifiers: [member.gameLicense] })
      .decision;
    expect(decision).toMatchObject({ admitted: true });
    expect(h.mock.counters.total).toBe(before);
    if (!decision.admitted) throw new Error('refused');
    const got = await eventually(
      () =>
        (h!.caller.exports.roster!.getMember!(decision.id) as {
          departments: { shortName: string }[];
        } | null) ?? undefined,
    );
    expect(got.departments.map((d) => d.shortName)).toContain(allowed);
    // The member who moved is held in the department they moved to, not in the one they left.
    const mover = h.mock.data.member(moved!.memberId)!;
    const held = (await h.caller.exports.roster!.lookupLicense!(mover.gameLicense)) as {
      departments: { id: string }[];
    };
    const departments = held.departments.map((d) => d.id);
    expect(departments).toContain(movedTo);
    expect(departments).not.toContain(moved!.departmentId);
    expect(h.mock.counters.total).toBe(before);
  });
});
