import { describe, expect, it } from 'vitest';
import { buildLadders } from '../../../src/features/permissions/ladders';
import { CatalogIndex } from '../../../src/roster/catalog-index';
import { catalog } from '../../roster/fixtures';

describe('rank ladders as principal inheritance', () => {
  it('links each rank to the one just below it and the lowest to the department (top-down)', () => {
    const ladders = buildLadders(new CatalogIndex(catalog), 'top-down', 'roster');
    expect(ladders.member).toBe('roster.member');
    expect(ladders.links).toEqual([
      { child: 'roster.lspd.chief', parent: 'roster.lspd.sergeant' },
      { child: 'roster.lspd.sergeant', parent: 'roster.lspd.officer' },
      { child: 'roster.lspd.officer', parent: 'roster.lspd' },
      { child: 'roster.safr.firefighter', parent: 'roster.safr' },
    ]);
    expect(ladders.departmentPrincipal('d-lspd')).toBe('roster.lspd');
    expect(ladders.rankPrincipal('r-sgt')).toBe('roster.lspd.sergeant');
  });

  it('follows ranks.order: bottom-up reverses the ladder', () => {
    const ladders = buildLadders(new CatalogIndex(catalog), 'bottom-up', 'rp.pd');
    expect(ladders.departments[0]?.ranks.map((r) => r.principal)).toEqual([
      'rp.pd.lspd.officer',
      'rp.pd.lspd.sergeant',
      'rp.pd.lspd.chief',
    ]);
    expect(ladders.links[2]).toEqual({ child: 'rp.pd.lspd.chief', parent: 'rp.pd.lspd' });
  });

  it('uses the name when the short name is missing or has no letters', () => {
    const ladders = buildLadders(
      new CatalogIndex({
        departments: [
          { id: 'd1', name: 'Blaine County Sheriff', shortName: null },
          { id: 'd2', name: 'State Patrol', shortName: '***' },
        ],
        ranks: [{ id: 'r1', departmentId: 'd1', name: 'Senior Lieutenant', position: 1 }],
      }),
      'top-down',
      'roster',
    );
    expect(ladders.departments.map((d) => d.principal)).toEqual([
      'roster.blaine_county_sheriff',
      'roster.state_patrol',
    ]);
    expect(ladders.rankPrincipal('r1')).toBe('roster.blaine_county_sheriff.senior_lieutenant');
  });

  it('gives no principal to a newer department that collides, to ranks that collide or names that slug to nothing, and says why', () => {
    const ladders = buildLadders(
      new CatalogIndex({
        departments: [
          { id: 'd1', name: 'Police', shortName: 'PD' },
          { id: 'd2', name: 'Other Police', shortName: 'pd!' },
          { id: 'd3', name: 'Members', shortName: 'Member' },
          { id: 'd4', name: 'Fire', shortName: 'FD' },
        ],
        ranks: [
          { id: 'r1', departmentId: 'd4', name: 'Captain', position: 1 },
          { id: 'r2', departmentId: 'd4', name: 'captain!', position: 2 },
          { id: 'r3', departmentId: 'd4', name: '★', position: 3 },
          { id: 'r4', departmentId: 'd4', name: 'Firefighter', position: 4 },
        ],
      }),
      'top-down',
      'roster',
    );
    // The department listed first keeps roster.pd; the other is named, with the one that has it.
    expect(ladders.departments.map((d) => d.principal)).toEqual(['roster.pd', 'roster.fd']);
    expect(ladders.departmentPrincipal('d1')).toBe('roster.pd');
    expect(ladders.departmentPrincipal('d2')).toBeUndefined();
    expect(ladders.problems[0]).toBe(
      'department "pd! — Other Police" would be roster.pd, which the older department "PD — Police" has: it gets no principal until renamed (or given a distinct short name).',
    );
    // A shared principal would give one rank another's ACEs: neither Captain gets one.
    expect(ladders.rankPrincipal('r1')).toBeUndefined();
    expect(ladders.rankPrincipal('r2')).toBeUndefined();
    expect(ladders.links).toEqual([{ child: 'roster.fd.firefighter', parent: 'roster.fd' }]);
    expect(ladders.problems).toHaveLength(5);
    expect(ladders.problems.join('\n')).toContain('roster.member');
  });

  it('a department added later never takes the principal from the one that holds it', () => {
    const police = { id: 'd-old', name: 'Police', shortName: 'PD', createdAt: '2024-01-01T00:00:00Z' };
    const before = buildLadders(new CatalogIndex({ departments: [police], ranks: [] }), 'top-down', 'roster');
    // Listed first and named alike: the service may list a new department anywhere.
    const newer = {
      id: 'd-new',
      name: 'Patrol Division',
      shortName: 'pd',
      createdAt: '2025-06-01T00:00:00Z',
    };
    const catalog = new CatalogIndex({ departments: [newer, police], ranks: [] });
    for (const ladders of [
      buildLadders(catalog, 'top-down', 'roster', before),
      // After a restart there is nothing previous: createdAt still tells the older one.
      buildLadders(catalog, 'top-down', 'roster'),
    ]) {
      expect(ladders.departmentPrincipal('d-old')).toBe('roster.pd');
      expect(ladders.departmentPrincipal('d-new')).toBeUndefined();
      expect(ladders.problems).toEqual([
        'department "pd — Patrol Division" would be roster.pd, which the older department "PD — Police" has: it gets no principal until renamed (or given a distinct short name).',
      ]);
    }
    // The holder keeps it even when its createdAt is the later one (the roster's dates moved).
    const held = buildLadders(
      new CatalogIndex({ departments: [{ ...police, createdAt: '2026-01-01T00:00:00Z' }, newer], ranks: [] }),
      'top-down',
      'roster',
      before,
    );
    expect(held.departmentPrincipal('d-old')).toBe('roster.pd');
  });

  it('keeps every principal name injection-free for hostile catalog names', () => {
    const ladders = buildLadders(
      new CatalogIndex({
        departments: [{ id: 'd', name: 'x', shortName: 'LS"PD; quit\n' }],
        ranks: [
          { id: 'r', departmentId: 'd', name: "Chief'; add_ace builtin.everyone command allow", position: 1 },
        ],
      }),
      'top-down',
      'roster',
    );
    for (const { child, parent } of ladders.links) {
      expect(child).toMatch(/^[a-z0-9_.]+$/);
      expect(parent).toMatch(/^[a-z0-9_.]+$/);
    }
    expect(ladders.rankPrincipal('r')).toBe('roster.ls_pd_quit.chief_add_ace_builtin_everyone_command_allow');
  });
});
