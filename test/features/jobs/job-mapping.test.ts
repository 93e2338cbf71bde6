import { describe, expect, it } from 'vitest';
import { gradesFrom } from '../../../src/features/jobs/framework-jobs';
import { resolveJobMapping } from '../../../src/features/jobs/job-mapping';
import { CatalogIndex } from '../../../src/roster/catalog-index';

const catalog = new CatalogIndex({
  departments: [{ id: 'd1', name: 'Police', shortName: 'LSPD' }],
  ranks: ['Chief', 'Captain', 'Sergeant', 'Senior Officer', 'Officer', 'Recruit'].map((name, i) => ({
    id: `r${i + 1}`,
    departmentId: 'd1',
    name,
    position: i + 1,
  })),
});
const jobs = new Map([
  [
    'police',
    {
      name: 'police',
      label: 'Police',
      grades: gradesFrom(
        { 0: { name: 'cadet' }, 1: { name: 'officer' }, 2: { name: 'sergeant' }, 3: { name: 'chief' } },
        0,
      ),
    },
  ],
]);
const grades = (mapping: ReturnType<typeof resolveJobMapping>) =>
  Object.fromEntries(mapping.departments[0]!.ranks.map((r) => [r.rank, [r.grade, r.source]]));

describe('resolveJobMapping', () => {
  it('by name, else the nearest more junior rank, else the lowest grade', () => {
    const mapping = resolveJobMapping({ LSPD: { job: 'police' } }, catalog, jobs, 'top-down', null);
    expect(grades(mapping)).toEqual({
      Chief: [3, 'by name'],
      Captain: [2, 'more junior'],
      Sergeant: [2, 'by name'],
      'Senior Officer': [1, 'more junior'],
      Officer: [1, 'by name'],
      Recruit: [0, 'lowest'],
    });
  });

  it('listed grades win, by rank id or name, and a promotion never lowers the grade', () => {
    const mapping = resolveJobMapping(
      { lspd: { job: 'police', grades: { r6: 1, captain: 3 } } },
      catalog,
      jobs,
      'top-down',
      null,
    );
    expect(grades(mapping)).toMatchObject({
      Recruit: [1, 'listed'],
      Officer: [1, 'by name'],
      Captain: [3, 'listed'],
      Chief: [3, 'by name'],
    });
  });

  it('leaves a mapping out whole when the job, a listed grade, a rank or the department is unknown', () => {
    const mapping = resolveJobMapping(
      {
        LSPD: { job: 'police', grades: { Officer: 7 } },
        FIRE: { job: 'ambulance' },
      },
      catalog,
      jobs,
      'top-down',
      null,
    );
    expect(mapping.departments).toEqual([]);
    expect(mapping.rows.map((r) => r.problems)).toEqual([
      ['job "police" has no grade 7 (for Officer)'],
      ['the roster has no department "FIRE"', 'the framework has no job "ambulance"'],
    ]);
    // Left out whole: neither job is driven, set back or taken away.
    expect([...mapping.managed]).toEqual([]);
  });

  it("a job named in another case is the framework's job, managed by its own name", () => {
    const mapping = resolveJobMapping({ LSPD: { job: 'Police' } }, catalog, jobs, 'top-down', null);
    expect(mapping.departments[0]!.job).toBe('police');
    expect([...mapping.managed]).toEqual(['police']);
  });

  it('a department named twice (by name and by short name) is left out the second time, naming the first', () => {
    const mapping = resolveJobMapping(
      { LSPD: { job: 'police' }, Police: { job: 'police', grades: { Chief: 0 } } },
      catalog,
      jobs,
      'top-down',
      null,
    );
    expect(mapping.departments.map((d) => d.department)).toEqual(['LSPD']);
    expect(mapping.rows[1]!.problems).toEqual(['jobs.departments.LSPD already maps this department']);
  });

  it('checks jobs.unassigned against the framework too', () => {
    const config = { LSPD: { job: 'police' } };
    expect(
      resolveJobMapping(config, catalog, jobs, 'top-down', { job: 'police', grade: 0 }).unassignedOk,
    ).toBe(true);
    expect(
      resolveJobMapping(config, catalog, jobs, 'top-down', { job: 'unemployed', grade: 0 }),
    ).toMatchObject({
      unassignedOk: false,
      unassignedProblem: 'the framework has no job "unemployed"',
    });
  });

  it('reads grades from lists with their base (ox_core labels from 1, ND weights)', () => {
    expect(gradesFrom(['Cadet', 'Officer'], 1)).toEqual([
      { level: 1, name: '', label: 'Cadet' },
      { level: 2, name: '', label: 'Officer' },
    ]);
    expect(
      gradesFrom(
        [
          { label: 'Cadet', weight: 1 },
          { label: 'Chief', weight: 5 },
        ],
        1,
      ).map((g) => g.level),
    ).toEqual([1, 5]);
    expect(gradesFrom({ '0': { grade: 0, name: 'recruit', label: 'Recruit' } }, 0)[0]).toEqual({
      level: 0,
      name: 'recruit',
      label: 'Recruit',
    });
  });
});
