import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shareKeyHash } from '../../../src/features/share/store-key';
import { API_KEY, KEY_HASH, member, ShareDatabase, type ShareServer } from './share-db-rig';

// What the shared tables hold about the API key after every kind of write: the hash of its id,
// nothing that would help anyone use it.
let shared: ShareDatabase;
let main: ShareServer;

beforeAll(async () => {
  shared = await ShareDatabase.create();
  main = await shared.server();
});

afterAll(() => shared?.close());

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('the key in the shared tables', () => {
  it('is the hash of "roster-share:" and its id, the same for every server on the key', () => {
    expect(KEY_HASH).toBe(sha256('roster-share:live01'));
    expect(shareKeyHash(`  ${API_KEY}\n`)).toBe(KEY_HASH);
    expect(shareKeyHash('rk_live01_anotherSecret')).toBe(KEY_HASH);
    expect(shareKeyHash('rk_live02_s3cretS3cretS3cret')).not.toBe(KEY_HASH);
  });

  it('appears nowhere else: no key, no secret, no hash of either, in any row of any table', async () => {
    const store = main.store();
    await store.migrate();
    await store.lease('main', 30_000);
    await store.publish('main', {
      members: [member('m1', 'Ann', 1)],
      auditPosition: { at: 'x' },
      community: 'c',
    });
    await store.writeThrough({ members: [member('m2', 'Bo', 2)], removed: [{ memberId: 'm1', readAt: 3 }] });
    await store.count(4);
    await store.pace('main', 4);
    await store.putFact('identity', { community: { id: 'c', name: 'C' }, scopes: ['members:read'] });
    await store.release('main');
    const secret = API_KEY.split('_')[2] ?? '';
    const forbidden = [API_KEY, secret, sha256(API_KEY), sha256(secret), sha256(`roster-share:${API_KEY}`)];
    const tables = await shared.query(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name LIKE 'roster\\_share\\_%'",
    );
    expect(tables).toHaveLength(9);
    let text = '';
    for (const { name } of tables)
      text += JSON.stringify(await shared.query(`SELECT * FROM ${String(name)}`));
    expect(text).toContain(KEY_HASH);
    for (const value of forbidden) expect(text.toLowerCase()).not.toContain(value.toLowerCase());
    expect(main.oxLog()).not.toContain(secret);
  });
});
