import { describe, expect, it } from 'vitest';
import { AUDIT_SHAPES, type DashboardChange, shapeEntry } from '../../../dev/mock-roster/audit-shapes';
import { feedRig } from './feed-rig';

const actor = { id: 'usr_staff', name: 'Roster Staff' };

/** The entry the mock's dashboard writes for `change` in `shape`, as the log lists it. */
function written(
  r: ReturnType<typeof feedRig>,
  shape: (typeof AUDIT_SHAPES)[number],
  change: DashboardChange,
) {
  return r.write(shapeEntry(shape, change, actor));
}

describe('the feed reads every shape of entry the mock writes', () => {
  for (const shape of AUDIT_SHAPES) {
    it(`${shape}: a status change of a member who is not online, a rank change of an online one, a renamed rank`, async () => {
      const r = feedRig();
      const away = await r.known(1);
      await r.online(2);
      await r.rosterCatalog.load();
      await r.start();
      const loads = r.state.catalogLoads;
      written(r, shape, {
        kind: 'member',
        id: 'm1',
        memberId: 'm1',
        field: 'status',
        from: 'ACTIVE',
        to: 'SUSPENDED',
      });
      written(r, shape, {
        kind: 'department_assignment',
        id: 'as2',
        memberId: 'm2',
        field: 'rankId',
        from: 'r2',
        to: 'r1',
      });
      await r.feed.poll();
      expect(r.lookups.flat().sort()).toEqual([away, 'license:2']);
      // A renamed rank names no member: departments and ranks are read again.
      written(r, shape, {
        kind: 'rank',
        id: 'r2',
        memberId: null,
        field: 'name',
        from: 'Officer',
        to: 'Patrol Officer',
      });
      await r.clock.advance(60_000);
      await r.feed.poll();
      expect(r.state.catalogLoads).toBe(loads + 1);
      expect(r.lookups).toHaveLength(1);
    });
  }
});

describe('an entry about a department or rank the catalog does not hold yet', () => {
  const created = [
    { action: 'department.create', resourceType: 'department', resourceId: 'd-new' },
    { action: 'DEPARTMENT_CREATED', targetType: 'Department', targetId: 'd-new' },
    { event: 'rank.created', entity: { type: 'rank', id: 'r-new' } },
    { resource: 'ranks', resourceId: 'r-new', operation: 'create' },
  ];
  for (const entry of created) {
    it(`reloads departments and ranks: ${JSON.stringify(entry)}`, async () => {
      const r = feedRig();
      await r.rosterCatalog.load();
      await r.start();
      const loads = r.state.catalogLoads;
      r.write(entry);
      await r.feed.poll();
      expect(r.state.catalogLoads).toBe(loads + 1);
    });
  }

  it('an assignment or member entry of a member not held does not', async () => {
    const r = feedRig();
    await r.rosterCatalog.load();
    await r.start();
    const loads = r.state.catalogLoads;
    r.write({
      action: 'department_assignment.update',
      resourceType: 'department_assignment',
      resourceId: 'as-x',
    });
    r.write({ action: 'UPDATE', category: 'roster', metadata: { memberId: 'm-x', field: 'rankId' } });
    r.write({
      targetType: 'DepartmentAssignment',
      targetId: 'as-y',
      description: 'Changed rank of a member',
    });
    await r.feed.poll();
    expect(r.state.catalogLoads).toBe(loads);
  });
});
