import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHARED_FACT_MOST_BYTES } from '../../../src/features/share/share-store';
import { ShareDatabase, type ShareServer } from './share-db-rig';

// What one server read from the service for all (the key's identity, departments and ranks), in
// the real database: written, replaced, read back with its age on the database's clock, per key.
let shared: ShareDatabase;
let main: ShareServer;

beforeEach(async () => {
  shared = await ShareDatabase.create();
  main = await shared.server();
  await main.store().migrate();
});

afterEach(() => shared.close());

const identity = { community: { id: 'c1', name: 'Los Santos' }, scopes: ['members:read'] };

describe('shared facts', () => {
  it('are read back by every server on the key as written, young, and replaced by a newer read', async () => {
    const events = await shared.server();
    expect(await events.store().fact('identity')).toBeNull();
    await main.store().putFact('identity', identity);
    const found = await events.store().fact('identity');
    expect(found?.value).toEqual(identity);
    expect(found?.ageMs).toBeGreaterThanOrEqual(0);
    expect(found?.ageMs).toBeLessThan(60_000);
    await events.store().putFact('identity', { ...identity, scopes: [] });
    expect((await main.store().fact('identity'))?.value).toEqual({ ...identity, scopes: [] });
    expect(await shared.query('SELECT COUNT(*) AS n FROM roster_share_facts')).toEqual([{ n: 1 }]);
  });

  it('age on the database clock from when they were written', async () => {
    await main.store().putFact('catalog', { departments: [], ranks: [] });
    await shared.query('UPDATE roster_share_facts SET read_at = read_at - 3600000');
    const found = await main.store().fact('catalog');
    expect(found?.ageMs).toBeGreaterThanOrEqual(3_600_000);
    expect(found?.ageMs).toBeLessThan(3_660_000);
  });

  it('of another key are never read', async () => {
    await main.store({ keyHash: 'f'.repeat(64) }).migrate();
    await main.store({ keyHash: 'f'.repeat(64) }).putFact('identity', identity);
    expect(await main.store().fact('identity')).toBeNull();
  });

  it('that are not JSON read as none; one too large is not written', async () => {
    await main.store().putFact('catalog', { departments: [], ranks: [] });
    await shared.query("UPDATE roster_share_facts SET value = '{not json'");
    expect(await main.store().fact('catalog')).toBeNull();
    await main.store().putFact('huge', { text: 'x'.repeat(SHARED_FACT_MOST_BYTES) });
    expect(await main.store().fact('huge')).toBeNull();
  });
});
