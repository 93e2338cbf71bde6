import { describe, expect, it } from 'vitest';
import { feedRig, recordingLogger } from './feed-rig';

describe('AuditFeed and entries it cannot read', () => {
  it('a deeply nested entry is skipped with one warning naming it, and the others of its read are handled', async () => {
    const { logger, warnings } = recordingLogger();
    const r = feedRig({ logger });
    const [first, second] = [await r.known(1), await r.known(2)];
    await r.start();
    let deep: unknown = { ref: 'm1' };
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    r.write({ id: 'deep-1', ref: 'm1', payload: deep });
    r.write({ ref: 'as2' });
    await r.feed.poll();
    expect(r.lookups).toEqual([[second]]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"deep-1"');
    expect(r.gaps).toHaveLength(1);
    // Read again: the skipped entry is not reported twice, and the feed goes on.
    r.write({ ref: 'm1' });
    await r.clock.advance(60_000);
    await r.feed.poll();
    expect(r.lookups).toEqual([[second], [first]]);
    expect(warnings).toHaveLength(1);
  });

  it('an entry whose reading fails in any way is skipped too: the read does not fail', async () => {
    const { logger, warnings } = recordingLogger();
    const r = feedRig({ logger });
    const license = await r.known(3);
    await r.start();
    const hostile = r.write({ id: 'bad-getter' });
    Object.defineProperty(hostile, 'payload', {
      enumerable: true,
      get() {
        throw new Error('cannot be read');
      },
    });
    r.write({ ref: 'm3' });
    await expect(r.feed.poll()).resolves.toMatchObject({ members: 1 });
    expect(r.lookups).toEqual([[license]]);
    expect(warnings.join('\n')).toContain('"bad-getter"');
  });
});
