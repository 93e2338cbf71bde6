/** roster:trainingUpdated and Player(src).state.training, on join and on background refreshes. */

import msgpack from 'msgpack-lite';
import { afterEach, describe, expect, it } from 'vitest';
import {
  discord,
  eventually,
  plain,
  startTrainingHarness,
  type TrainingHarness,
  trainingReady,
} from './training-harness';

let h: TrainingHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function record(harness: TrainingHarness) {
  const updates: [unknown, { linked: boolean; completions: { title: string }[] }][] = [];
  const loaded: unknown[] = [];
  harness.caller.on('roster:trainingUpdated', (src, training) =>
    updates.push([src, plain(training) as never]),
  );
  harness.caller.on('roster:playerLoaded', (src) => loaded.push(src));
  return { updates, loaded };
}

const bag = (harness: TrainingHarness, id: number) =>
  plain(harness.caller.eval(`Player("${id}").state.training`));

describe('training event and state bag', () => {
  it('announce a joined player once, with src as a number, and the bag holds the getTraining value', async () => {
    h = await startTrainingHarness();
    await trainingReady(h);
    const { updates, loaded } = record(h);
    const id = await h.join('Alice', [discord(0)]);
    await eventually(() => updates.length > 0);
    expect(updates[0]![0]).toBe(id);
    expect(updates[0]![1].completions.map((c) => c.title)).toEqual(['Police Academy']);
    expect(bag(h, id)).toEqual(updates[0]![1]);
    expect(bag(h, id)).toEqual(plain(h.caller.exports.roster!.getTraining!(id)));
    const writes = h.server.bags.writes.filter((w) => w.bag === `player:${id}` && w.key === 'training');
    expect(writes.every((w) => w.replicated)).toBe(true);
    expect(JSON.stringify(writes.map((w) => msgpack.decode(Buffer.from(w.value))))).not.toMatch(
      /Advanced Driving/,
    );
    // The roster's own handler still saw the player's id (a nested emit must not reset `source`).
    await eventually(() => loaded.includes(id));
    await new Promise((r) => setTimeout(r, 200));
    expect(updates).toHaveLength(1);
  });

  it('a background refresh announces a new listed completion, not an unlisted one', async () => {
    h = await startTrainingHarness({ config: { refresh: { intervalSeconds: 1 } } });
    await trainingReady(h);
    const { updates } = record(h);
    const id = await h.join('Eve', [discord(2)]);
    await eventually(() => updates.length === 1);
    expect(updates[0]![1]).toEqual({ linked: true, completions: [] });
    const sub = h.learning.data.users[2]!.user_sub;
    h.learning.data.complete(sub, 'Advanced Driving');
    const before = h.learning.counters.byEndpoint()['GET /api/public/v1/discord/completions']!;
    await eventually(
      () => h!.learning.counters.byEndpoint()['GET /api/public/v1/discord/completions']! > before + 1,
      5000,
    );
    expect(updates).toHaveLength(1);
    h.learning.data.complete(sub, 'Fire Academy');
    await eventually(() => updates.length === 2, 5000);
    expect(updates[1]![0]).toBe(id);
    expect(updates[1]![1].completions.map((c) => c.title)).toEqual(['Fire Academy']);
    expect(bag(h, id)).toEqual(updates[1]![1]);
  });

  it('a player who links while online is announced as linked on the next refresh', async () => {
    h = await startTrainingHarness({ config: { refresh: { intervalSeconds: 1 } } });
    await trainingReady(h);
    const { updates } = record(h);
    const id = await h.join('Ned', ['discord:300000000000000123']);
    await eventually(() => updates.length === 1);
    expect(updates[0]![1]).toEqual({ linked: false, completions: [] });
    h.learning.data.link('300000000000000123', h.learning.data.users[4]!.user_sub);
    await eventually(() => updates.length === 2, 5000);
    expect(updates[1]![1]).toMatchObject({ linked: true, completions: [{ title: 'Fire Academy' }] });
    expect(bag(h, id)).toEqual(updates[1]![1]);
  });

  it('follows the completion list across pages', async () => {
    h = await startTrainingHarness({ learning: { pageSize: 1 } });
    await trainingReady(h);
    await eventually(
      () => (h!.learning.counters.byEndpoint()['GET /api/public/v1/discord/completions'] ?? 0) >= 4,
    );
    const id = await h.join('Bob', [discord(1)]);
    const training = await eventually(() => plain(h!.caller.exports.roster!.getTraining!(id)) ?? undefined);
    expect(training).toMatchObject({ linked: true, completions: [{ title: 'Fire Academy' }] });
  });

  it('forgets a player who leaves', async () => {
    h = await startTrainingHarness();
    await trainingReady(h);
    const id = await h.join('Alice', [discord(0)]);
    await eventually(() => h!.caller.exports.roster!.getTraining!(id) ?? undefined);
    h.server.dropPlayer(id, 'Exiting');
    await eventually(() => h!.caller.exports.roster!.getTraining!(id) === null);
  });
});
