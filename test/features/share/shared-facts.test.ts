import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FACT_WAIT_MS, FactBoard } from '../../../src/features/share/shared-facts';
import { MemoryShareStore, MemoryShareTables } from '../../../src/features/share/store-memory';
import { FakeClock } from '../../http/limiter/fake-clock';

const schemas = { record: z.unknown(), auditPosition: z.unknown() };
const identity = z.object({ name: z.string() });
const HOUR = 3_600_000;

let clock: FakeClock;
let tables: MemoryShareTables;
let role: 'reader' | 'follower' | null;
let settle: () => void;
let board: FactBoard;
let other: MemoryShareStore<unknown, unknown>;

beforeEach(async () => {
  clock = new FakeClock();
  tables = new MemoryShareTables(clock);
  const store = new MemoryShareStore(tables, 'k'.repeat(64), schemas);
  other = new MemoryShareStore(tables, 'k'.repeat(64), schemas);
  await store.migrate();
  role = 'follower';
  const settled = new Promise<void>((resolve) => (settle = resolve));
  board = new FactBoard({ store, clock, sharing: { settled: () => settled, role: () => role } });
});

/** `take` under way, its answer kept for the test to read once time has moved. */
function taking(wait: boolean) {
  const answer: { value?: unknown; done: boolean } = { done: false };
  void board.take('identity', identity, HOUR, { wait }).then((found) => {
    answer.value = found;
    answer.done = true;
  });
  return answer;
}

describe('FactBoard', () => {
  it('answers once this server knows where it stands, with what another server wrote, and its age', async () => {
    await other.putFact('identity', { name: 'Los Santos' });
    await clock.advance(1_000);
    const answer = taking(false);
    await clock.advance(10);
    expect(answer.done).toBe(false);
    settle();
    await clock.advance(0);
    expect(answer.value).toEqual({ value: { name: 'Los Santos' }, ageMs: 1_010 });
  });

  it('a follower waits a few seconds for the reader to write a fact; then reads it', async () => {
    settle();
    const answer = taking(true);
    await clock.advance(1_000);
    expect(answer.done).toBe(false);
    await other.putFact('identity', { name: 'Los Santos' });
    await clock.advance(500);
    expect(answer.value).toMatchObject({ value: { name: 'Los Santos' } });
  });

  it('gives up after the wait, and never waits as the reader, alone, or unasked', async () => {
    settle();
    const waited = taking(true);
    await clock.advance(FACT_WAIT_MS - 1);
    expect(waited.done).toBe(false);
    await clock.advance(1);
    expect(waited).toEqual({ value: null, done: true });
    for (const now of ['reader', null] as const) {
      role = now;
      const answer = taking(true);
      await clock.advance(0);
      expect(answer).toEqual({ value: null, done: true });
    }
    role = 'follower';
    const unasked = taking(false);
    await clock.advance(0);
    expect(unasked).toEqual({ value: null, done: true });
  });

  it('a fact too old, not in shape, or a database that fails is none: the server reads it itself', async () => {
    settle();
    await other.putFact('identity', { name: 'Los Santos' });
    await clock.advance(HOUR);
    expect(await board.take('identity', identity, HOUR)).toBeNull();
    await other.putFact('identity', { name: 42 });
    expect(await board.take('identity', identity, HOUR)).toBeNull();
    await other.putFact('identity', { name: 'Los Santos' });
    tables.failing = 'timeout';
    expect(await board.take('identity', identity, HOUR)).toBeNull();
    board.put('identity', { name: 'Vinewood' });
    await clock.advance(0);
    tables.failing = null;
    expect((await board.take('identity', identity, HOUR))?.value).toEqual({ name: 'Los Santos' });
  });

  it('what this server read is left for the others, once it knows it shares; unless it is alone', async () => {
    board.put('identity', { name: 'Vinewood' });
    await clock.advance(100);
    expect(await other.fact('identity')).toBeNull();
    settle();
    await clock.advance(0);
    expect((await other.fact('identity'))?.value).toEqual({ name: 'Vinewood' });
    role = null;
    board.put('identity', { name: 'Sandy Shores' });
    await clock.advance(0);
    expect((await other.fact('identity'))?.value).toEqual({ name: 'Vinewood' });
  });

  it('a server that never learns where it stands answers after the wait', async () => {
    const answer = taking(true);
    await clock.advance(FACT_WAIT_MS);
    expect(answer.done).toBe(true);
  });
});
