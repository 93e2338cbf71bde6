import { describe, expect, it } from 'vitest';
import { DepartmentRequirements } from '../../../src/features/training/department-requirements';
import { certificateDays } from '../../../src/features/training/fivem/training-exports';
import type { Training } from '../../../src/features/training/training-model';
import { TrainingRequests } from '../../../src/features/training/training-requests';
import { TrainingService } from '../../../src/features/training/training-service';
import { CatalogIndex } from '../../../src/roster/catalog-index';
import { viewOf } from '../../../src/roster/member-view';
import { outcome } from '../../roster/client/fake-roster';
import { json, testLearning } from './fake-learning';

function setup() {
  const world = {
    completions: [
      { discord_id: '111111', user_sub: 's1', course_id: 'c-police', completed_at: '2025-01-01T00:00:00Z' },
    ],
    links: { '111111': true } as Record<string, boolean>,
  };
  const t = testLearning((request) => {
    const path = request.path.replace('/api/public/v1', '');
    if (path === '/courses')
      return json({
        courses: [
          { id: 'c-police', title: 'Police Academy', listed: true },
          { id: 'c-drive', title: 'Advanced Driving', listed: false },
        ],
      });
    if (path === '/discord/completions') return json({ completions: world.completions });
    if (path.startsWith('/discord/links/'))
      return json({ linked: world.links[path.split('/').pop()!] === true });
    return { status: 404, body: {} };
  });
  const announced: [string, Training][] = [];
  const service = new TrainingService({
    api: t.api,
    clock: t.clock,
    logger: t.logger,
    events: { trainingUpdated: (src, training) => announced.push([src, training]) },
  });
  const settle = <T>(p: Promise<T>) => outcome(t.clock, p, 100).then((r) => r.value as T);
  return { ...t, world, service, announced, settle };
}

describe('TrainingService', () => {
  it('a player is unknown (null) until the link, completions and courses are known, then announced once', async () => {
    const { service, announced, settle } = setup();
    await settle(service.addPlayer('1', '111111', 'A'));
    expect(service.training('1')).toBeNull();
    expect(announced).toEqual([]);
    await settle(service.loadCourses());
    await settle(service.loadCompletions());
    expect(service.training('1')).toEqual({
      linked: true,
      completions: [{ courseId: 'c-police', title: 'Police Academy', completedAt: '2025-01-01T00:00:00Z' }],
    });
    expect(announced).toHaveLength(1);
    await settle(service.loadCompletions());
    expect(announced).toHaveLength(1);
  });

  it('announces a new listed completion, not an unlisted one', async () => {
    const { service, announced, settle, world } = setup();
    await settle(service.loadCourses());
    await settle(service.loadCompletions());
    await settle(service.addPlayer('1', '111111', 'A'));
    expect(announced).toHaveLength(1);
    world.completions.push({
      discord_id: '111111',
      user_sub: 's1',
      course_id: 'c-drive',
      completed_at: '2025-02-01T00:00:00Z',
    });
    await settle(service.refreshOnline());
    expect(announced).toHaveLength(1);
    expect(service.hasCompletedCourse('1', 'advanced driving')).toBe(true);
  });

  it('reuses a fresh link answer on join instead of asking again', async () => {
    const { service, settle, requests } = setup();
    await settle(service.lookupLink('111111', 'join'));
    await settle(service.addPlayer('1', '111111', 'A'));
    expect(requests.filter((r) => r.path.includes('/discord/links/'))).toHaveLength(1);
  });

  it('re-checks the link of online players the completion list does not show', async () => {
    const { service, settle, world, announced } = setup();
    await settle(service.loadCourses());
    await settle(service.loadCompletions());
    await settle(service.addPlayer('2', '222222', 'B'));
    expect(announced.at(-1)).toEqual(['2', { linked: false, completions: [] }]);
    world.links['222222'] = true;
    await settle(service.refreshOnline());
    expect(announced.at(-1)).toEqual(['2', { linked: true, completions: [] }]);
  });

  it('a player without discord is not linked; a dropped player is unknown', async () => {
    const { service, settle } = setup();
    await settle(service.addPlayer('3', null, 'C'));
    expect(service.training('3')).toEqual({ linked: false, completions: [] });
    service.dropPlayer('3');
    expect(service.training('3')).toBeNull();
  });
});

describe('isQualified', () => {
  it('needs the department and its courses, matching department keys case-insensitively', async () => {
    const { service, settle } = setup();
    await settle(service.loadCourses());
    await settle(service.loadCompletions());
    await settle(service.addPlayer('1', '111111', 'A'));
    const requirements = new DepartmentRequirements({
      lspd: ['Police Academy'],
      'Fire Department': ['Fire Academy'],
    });
    const requests = new TrainingRequests(service, requirements);
    const catalog = new CatalogIndex({
      departments: [
        { id: 'd1', name: 'Los Santos Police', shortName: 'LSPD' },
        { id: 'd2', name: 'Fire Department', shortName: 'SAFD' },
      ],
      ranks: [],
    });
    const department = (id: string, name: string, shortName: string) => ({
      id,
      name,
      shortName,
      primary: true,
      callsign: null,
      rank: null,
    });
    const view = viewOf({
      id: 'm',
      name: 'M',
      status: 'ACTIVE',
      license: 'l',
      departments: [
        department('d1', 'Los Santos Police', 'LSPD'),
        department('d2', 'Fire Department', 'SAFD'),
      ],
    });
    expect(requests.isQualified('1', 'Los Santos Police', view, catalog)).toBe(true);
    expect(requests.isQualified('1', 'safd', view, catalog)).toBe(false);
    expect(requests.isQualified('1', 'EMS', view, catalog)).toBe(false);
    expect(requests.isQualified('1', 'LSPD', undefined, catalog)).toBe(false);
    // Without the roster's departments the requirements cannot be known: closed.
    expect(requests.isQualified('1', 'LSPD', view, undefined)).toBe(false);
  });

  it('fails closed while a department key matches no department (a typo)', async () => {
    const { service, settle } = setup();
    await settle(service.loadCourses());
    await settle(service.loadCompletions());
    await settle(service.addPlayer('1', '111111', 'A'));
    const catalog = new CatalogIndex({
      departments: [
        { id: 'd1', name: 'Los Santos Police', shortName: 'LSPD' },
        { id: 'd2', name: 'Fire Department', shortName: 'SAFD' },
      ],
      ranks: [],
    });
    const named: string[] = [];
    const requirements = new DepartmentRequirements({ LSPDD: ['Fire Academy'] }, (key) => named.push(key));
    // Before departments load nothing can be named, and isQualified already fails closed.
    expect(requirements.coursesFor(new CatalogIndex(), 'd1')).toBeNull();
    expect(named).toEqual([]);
    expect(requirements.resolve(catalog).unmatched).toEqual(['LSPDD']);
    // Named once, by whichever use reads the departments first (here a later isQualified would).
    expect(requirements.coursesFor(catalog, 'd1')).toBeNull();
    expect(requirements.resolve(new CatalogIndex(catalog.catalog)).unmatched).toEqual(['LSPDD']);
    expect(named).toEqual(['LSPDD']);
    const view = viewOf({
      id: 'm',
      name: 'M',
      status: 'ACTIVE',
      license: 'l',
      departments: [
        { id: 'd1', name: 'Los Santos Police', shortName: 'LSPD', primary: true, callsign: null, rank: null },
      ],
    });
    expect(new TrainingRequests(service, requirements).isQualified('1', 'LSPD', view, catalog)).toBe(false);
    expect(
      new TrainingRequests(service, new DepartmentRequirements({})).isQualified('1', 'LSPD', view, catalog),
    ).toBe(true);
  });
});

describe('certificateDays', () => {
  it.each([
    [undefined, 30],
    [null, 30],
    [7, 7],
    ['14', 14],
    [365, 365],
    [0, null],
    [366, null],
    [1.5, null],
    ['x', null],
    [{}, null],
  ])('%j → %j', (value, expected) => {
    expect(certificateDays(value)).toBe(expected);
  });
});
