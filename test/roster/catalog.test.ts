import { describe, expect, it } from 'vitest';
import { type CatalogShare, SHARED_CATALOG_MS } from '../../src/roster/catalog';
import type { Catalog } from '../../src/roster/model';
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

/** A shared catalog as the servers' database would hold it: what was put, and when (on `clock`). */
function shelf(clock: { now(): number }) {
  const kept: { catalog: Catalog; at: number }[] = [];
  const asked: { maxAgeMs: number; wait: boolean }[] = [];
  const share: CatalogShare = {
    take: async (maxAgeMs, wait) => {
      asked.push({ maxAgeMs, wait });
      const last = kept[kept.length - 1];
      if (!last || clock.now() - last.at >= maxAgeMs) return null;
      return { catalog: last.catalog, ageMs: clock.now() - last.at };
    },
    put: (catalog) => kept.push({ catalog, at: clock.now() }),
  };
  return { share, kept, asked };
}

const oneDepartment: Catalog = {
  departments: [{ id: 'd-bcso', name: 'BCSO', shortName: null }],
  ranks: [{ id: 'r-dep', departmentId: 'd-bcso', name: 'Deputy', position: 1 }],
};

describe('RosterCatalog shared with the other servers on the key', () => {
  it('a first load takes what another server read lately, waiting for it, and asks the service nothing', async () => {
    const source = fakeSource(() => lookupOf());
    const { catalog, clock } = rosterCore(source);
    const { share, kept, asked } = shelf(clock);
    kept.push({ catalog: oneDepartment, at: clock.now() - 60_000 });
    catalog.shareThrough(share);
    expect(await catalog.load()).toBe(true);
    expect(source.calls.catalog).toBe(0);
    expect(catalog.index.department('BCSO')?.id).toBe('d-bcso');
    expect(asked).toEqual([{ maxAgeMs: SHARED_CATALOG_MS, wait: true }]);
  });

  it('none shared, or too old: read from the service and left for the others', async () => {
    const source = fakeSource(() => lookupOf());
    const { catalog, clock } = rosterCore(source);
    const { share, kept } = shelf(clock);
    kept.push({ catalog: oneDepartment, at: clock.now() - SHARED_CATALOG_MS });
    catalog.shareThrough(share);
    expect(await catalog.load()).toBe(true);
    expect(source.calls.catalog).toBe(1);
    expect(catalog.index.department('lspd')?.id).toBe('d-lspd');
    expect(kept).toHaveLength(2);
    expect(kept[1]?.catalog.departments.map((d) => d.id)).toContain('d-lspd');
  });

  it('the periodic reload takes a catalog read since this one, else reads it and shares it', async () => {
    const source = fakeSource(() => lookupOf());
    const { catalog, clock } = rosterCore(source);
    const { share, kept } = shelf(clock);
    catalog.shareThrough(share);
    await catalog.load();
    expect(source.calls.catalog).toBe(1);
    await clock.advance(30 * 60_000);
    // Another server reloaded a minute ago: taken, no request.
    kept.push({ catalog: oneDepartment, at: clock.now() - 60_000 });
    expect(await catalog.refresh()).toBe(true);
    expect(source.calls.catalog).toBe(1);
    expect(catalog.index.department('BCSO')?.id).toBe('d-bcso');
    // Thirty minutes on, nothing newer than this copy (read 31 minutes ago): read and shared.
    await clock.advance(30 * 60_000);
    expect(await catalog.refresh()).toBe(true);
    expect(source.calls.catalog).toBe(2);
    expect(kept).toHaveLength(3);
    // A forced reload (the audit log named a rank) always asks the service.
    expect(await catalog.load(true)).toBe(true);
    expect(source.calls.catalog).toBe(3);
  });
});
