import { describe, expect, it } from 'vitest';
import { fakeSource, rosterCore } from './core-rig';
import { lookupOf } from './fixtures';

describe('RosterCatalog', () => {
  it('a failed first load is tried again at most once a minute, unless forced', async () => {
    const source = fakeSource(() => lookupOf());
    source.failCatalog = true;
    const { catalog, clock, errors, lines } = rosterCore(source);
    expect(await catalog.load()).toBe(false);
    expect(catalog.ready).toBe(false);
    expect(errors.last).toEqual({
      message: 'could not load departments and ranks: departments unavailable',
      at: clock.now(),
    });
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    source.failCatalog = false;
    await clock.advance(59_000);
    expect(await catalog.load()).toBe(false);
    expect(source.calls.catalog).toBe(1);
    expect(await catalog.load(true)).toBe(true);
    expect(source.calls.catalog).toBe(2);
    expect(catalog.ready).toBe(true);
  });

  it('each load is told with the new index; a failed reload keeps the last one', async () => {
    const source = fakeSource(() => lookupOf());
    const { catalog, catalogsLoaded } = rosterCore(source);
    let first = 0;
    catalog.onFirstLoad(() => first++);
    expect(await catalog.load()).toBe(true);
    expect(catalog.index.department('lspd')?.id).toBe('d-lspd');
    source.departments = { departments: [], ranks: [] };
    expect(await catalog.load(true)).toBe(true);
    source.failCatalog = true;
    expect(await catalog.load(true)).toBe(false);
    expect(catalog.ready).toBe(true);
    expect(catalog.index.departments.size).toBe(0);
    expect(catalogsLoaded).toEqual([2, 0]);
    expect(first).toBe(1);
  });
});
