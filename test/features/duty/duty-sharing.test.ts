import { describe, expect, it } from 'vitest';
import { DutyLedger } from '../../../src/features/duty/duty-ledger';
import { DutyReader } from '../../../src/features/duty/duty-reader';
import { DutySharing } from '../../../src/features/duty/duty-sharing';
import type {
  DutyShareStore,
  SharedDutySession,
  SharedDutyState,
} from '../../../src/features/share/shared-duty';
import { silentLogger } from '../../../src/platform/ports';
import { FakeClock } from '../../http/limiter/fake-clock';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-03-01T12:00:00Z');
const INTERVAL = 300_000;
const fields = {
  member: 'who',
  end: 'off',
  duration: null,
  sortable: { startedAt: true, createdAt: true },
} as const;

interface Session {
  id: string;
  who: string;
  startedAt: string;
  off: string | null;
  createdAt: string;
}

/** One service, one database's rows (the continuity rule of the SQL store), several servers. */
function community(clock: FakeClock) {
  const sessions: Session[] = [];
  const rows: (SharedDutySession & { version: number })[] = [];
  let state: SharedDutyState = { version: 0, from: null, after: null, fedAt: 0, now: 0 };
  const store: DutyShareStore = {
    state: async () => ({ ...state, now: clock.now() }),
    publish: async (read) => {
      const version = state.version + 1;
      const carries = state.after !== null && read.from <= state.after;
      state = {
        version,
        from: carries ? state.from : read.from,
        after: Math.max(state.after ?? read.after, read.after),
        fedAt: clock.now(),
        now: 0,
      };
      for (const s of read.sessions) rows.push({ ...s, version });
    },
    sessionsSince: async (after) => {
      const found = rows.filter((r) => r.version > after.version);
      const last = found.at(-1);
      return {
        sessions: found.map(({ version: _v, ...s }) => s),
        unreadable: 0,
        next: last ? { version: last.version, id: last.id } : after,
        done: true,
      };
    },
  };
  const server = (role: () => 'reader' | 'follower' | null) => {
    const calls: Record<string, unknown>[] = [];
    const ledger = new DutyLedger();
    const reader = new DutyReader({
      list: async (_path, query) => {
        calls.push(query);
        const members = query.who === undefined ? null : new Set(query.who as readonly string[]);
        const field = 'createdAt.after' in query ? 'createdAt' : 'startedAt';
        const after = Date.parse(query[`${field}.after`] as string);
        return sessions
          .filter((s) => (members === null || members.has(s.who)) && Date.parse(s[field]) > after)
          .sort((a, b) => Date.parse(a[field]) - Date.parse(b[field]));
      },
      fields,
      ledger,
      clock,
      logger: silentLogger,
    });
    const sharing = new DutySharing(() => ({ role, store }), silentLogger, INTERVAL);
    const refresh = async (online: string[]) => {
      const source = await sharing.before(reader);
      await sharing.after(await reader.refresh(online, Math.ceil(online.length / 100), source));
    };
    return { calls, ledger, refresh, sharing };
  };
  const add = (id: string, who: string, startAgo: number, hours: number) =>
    sessions.push({
      id,
      who,
      startedAt: new Date(clock.now() - startAgo).toISOString(),
      off: new Date(clock.now() - startAgo + hours * HOUR).toISOString(),
      createdAt: new Date(clock.now()).toISOString(),
    });
  return { server, add, rows };
}

describe('duty sessions shared through the database', () => {
  it('the reader reads what the community stored once; the follower takes it from the rows and asks only for its new members', async () => {
    const clock = new FakeClock(NOW);
    const { server, add } = community(clock);
    let readerRole: 'reader' | 'follower' | null = 'reader';
    const main = server(() => readerRole);
    const events = server(() => 'follower');
    const mainOnline = Array.from({ length: 150 }, (_, i) => `a${i}`);
    const eventsOnline = Array.from({ length: 150 }, (_, i) => `b${i}`);
    for (let round = 0; round < 3; round++) {
      await main.refresh(mainOnline);
      await events.refresh(eventsOnline);
      await clock.advance(INTERVAL);
    }
    const before = events.calls.length;
    // Stored late, for a player on the follower: the reader's read finds it, the follower applies it.
    add('late', 'b7', 3 * HOUR, 2);
    for (let round = 0; round < 3; round++) {
      await main.refresh(mainOnline);
      await events.refresh(eventsOnline);
      await clock.advance(INTERVAL);
    }
    expect(events.ledger.hours('b7', 7, clock.now())).toBe(2);
    expect(events.calls.slice(before)).toEqual([]);
    expect([main.sharing.standing, events.sharing.standing]).toEqual(['reads for the others', 'follows']);
    expect(main.calls.slice(-1)[0]!.who).toBeUndefined();
    // The reader stops reading for the others: after two intervals the follower reads itself.
    readerRole = null;
    add('later', 'b9', HOUR, 1);
    for (let round = 0; round < 3; round++) {
      await events.refresh(eventsOnline);
      await clock.advance(INTERVAL);
    }
    expect(events.ledger.hours('b9', 7, clock.now())).toBe(1);
    expect(events.calls.slice(before).some((q) => q.who === undefined)).toBe(true);
    expect(events.sharing.standing).toBeNull();
  });
});
