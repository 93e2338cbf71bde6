import { beforeEach, describe, expect, it } from 'vitest';
import type { SharedMirror } from '../../../src/features/mirror/handle';
import type { MirrorChangeListener } from '../../../src/features/mirror/member-index';
import type { MirroredMember } from '../../../src/features/mirror/mirrored-member';
import type { SharedStart } from '../../../src/features/mirror/shared-copy';
import { LEASE_MS } from '../../../src/features/share/share-timing';
import { SHARE_SCHEMAS } from '../../../src/features/share/shared-record';
import { SharedRoster } from '../../../src/features/share/shared-roster';
import { MemoryShareStore, MemoryShareTables } from '../../../src/features/share/store-memory';
import type { Logger } from '../../../src/platform/ports';
import { FakeClock } from '../../http/limiter/fake-clock';

const KEY = 'c'.repeat(64);

/** The mirror as the sharing sees it: what it was told, and a listener to change it as reads do. */
class MirrorDouble {
  following = false;
  inStep: () => boolean = () => false;
  readonly held = new Map<string, MirroredMember>();
  complete = false;
  leads: (SharedStart | null)[] = [];
  listener: MirrorChangeListener | null = null;
  position: { at: number | null } | null = null;
  deciding = false;
  fullReadAt: number | null = null;
  auditReadAt: number | null = null;
  /** Turned off (`mirror.enabled` false, or a roster too large to hold). */
  off = false;
  /** Ids the copy holds as doubted. */
  readonly doubted = new Set<string>();

  /** Its full read completed, its audit feed at `at`: it decides, and says so when it writes. */
  completeRead(at: number): void {
    this.deciding = true;
    this.position = { at };
    this.fullReadAt = clock.now();
  }

  /** A member held whose record came into doubt (told to the sharing). */
  doubt(member: MirroredMember): void {
    this.listener?.([], [], [member]);
  }

  /** A change its own reads made (told to the sharing). */
  read(member: MirroredMember): void {
    this.held.set(member.id, member);
    this.listener?.([member], []);
  }

  asShared(): SharedMirror {
    const self = this;
    return {
      get followingShared() {
        return self.following;
      },
      get communityHeld() {
        return 'id:c1';
      },
      onChange: (listener) => {
        self.listener = listener;
      },
      followShared: (inStep) => {
        self.following = true;
        self.inStep = inStep;
      },
      applyShared: (rows, whole) => {
        if (!self.following) return;
        if (whole) self.held.clear();
        for (const { id } of rows.removed) self.held.delete(id);
        for (const member of rows.put) self.held.set(member.id, member);
        for (const id of rows.doubted ?? []) self.doubted.add(id);
      },
      sharedComplete: () => {
        self.complete = true;
      },
      lead: (from) => {
        if (!self.following) return;
        self.following = false;
        self.leads.push(from);
      },
      auditPosition: () => self.position,
      report: () => ({
        state: self.off ? { kind: 'off', why: 'disabled' } : { kind: 'up' },
        held: self.held.size,
        lastFullReadAt: self.fullReadAt,
        requestsToday: 0,
        failure: null,
        caughtUp: null,
        auditReadAt: self.auditReadAt,
        deciding: self.deciding,
        gaps: 0,
        lastGap: null,
        clockSkew: null,
      }),
    };
  }
}

const member = (id: string, status = 'ACTIVE'): MirroredMember => ({
  id,
  name: `Member ${id}`,
  status,
  license: `license:${id.padStart(40, '0')}`,
  assignments: [],
  createdAt: null,
  readAt: 1,
});

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, error() {}, info() {}, debug() {}, warn: (line: string) => void warnings.push(line) };
}

let clock: FakeClock;
let tables: MemoryShareTables;

function server(name: string, auditMs?: number) {
  const mirror = new MirrorDouble();
  const logger = recordingLogger();
  const sent = { requests: 0 };
  const roster = new SharedRoster({
    store: new MemoryShareStore(tables, KEY, SHARE_SCHEMAS),
    mirror: mirror.asShared(),
    server: name,
    clock,
    logger,
    ...(auditMs === undefined ? {} : { auditMs }),
    requestsSent: () => {
      const count = sent.requests;
      sent.requests = 0;
      return count;
    },
  });
  return { mirror, roster, logger, sent };
}

/** `main` starts first and reads; `events` starts after it and follows. */
async function readerAndFollower() {
  const main = server('main');
  await run([main], 1);
  const events = server('events');
  await run([events], 1);
  return { main, events };
}

/** Every server ticks, then the clock moves on by `ms`, `times` over. */
async function run(servers: { roster: SharedRoster }[], times: number, ms = 500): Promise<void> {
  for (let i = 0; i < times; i++) {
    for (const each of servers) await each.roster.tick();
    await clock.advance(ms);
  }
}

beforeEach(() => {
  clock = new FakeClock(Date.UTC(2026, 0, 1, 12));
  tables = new MemoryShareTables(clock);
});

describe('one reader, the others following', () => {
  it('the first server reads; the second follows its changes, and decides once it says it is complete', async () => {
    const { main, events } = await readerAndFollower();
    expect(main.roster.report().role).toBe('reader');
    // An empty shared roster: the reader reads it whole, from no audit position.
    expect(main.mirror.leads).toEqual([{ audit: null, fullReadAt: null, complete: false }]);
    expect(events.roster.report().role).toBe('follower');
    expect(events.mirror.following).toBe(true);

    main.mirror.read(member('m1'));
    main.mirror.read(member('m2', 'SUSPENDED'));
    await run([main, events], 4);
    expect(events.mirror.held.get('m2')?.status).toBe('SUSPENDED');
    expect(events.mirror.complete).toBe(false);
    expect(events.mirror.inStep()).toBe(false);

    main.mirror.completeRead(1000);
    await run([main, events], 4);
    expect(events.mirror.complete).toBe(true);
    expect(events.mirror.inStep()).toBe(true);
    expect(events.roster.report().lag).toBe(0);
  });

  it('writes nothing while nothing changes: the version stays where it is', async () => {
    const { main, events } = await readerAndFollower();
    main.mirror.read(member('m1'));
    main.mirror.completeRead(5);
    await run([main, events], 4);
    const version = main.roster.report().version;
    await run([main, events], 40);
    expect(main.roster.report().version).toBe(version);
    expect(events.roster.report()).toMatchObject({ version, lag: 0 });
  });

  it('a reader whose audit feed stops reaching the end of the log stops the followers deciding, its lease running', async () => {
    const main = server('main', 1_000);
    const events = server('events', 1_000);
    await run([main], 1);
    await run([events], 1);
    main.mirror.completeRead(5);
    for (let i = 0; i < 10; i++) {
      main.mirror.auditReadAt = clock.now();
      await run([main, events], 2);
    }
    expect(events.mirror.inStep()).toBe(true);
    // The audit log is not read to its end any more (the reader's own mirror would stop deciding
    // too, but a reader that cannot say so must not leave the others deciding).
    await run([main, events], 16);
    expect(main.roster.report().leaseLeftMs).toBeGreaterThan(0);
    expect(events.mirror.inStep()).toBe(false);
  });

  it("a gap in the reader's log stops the followers deciding", async () => {
    const { main, events } = await readerAndFollower();
    main.mirror.completeRead(5);
    await run([main, events], 4);
    expect(events.mirror.inStep()).toBe(true);
    main.mirror.deciding = false;
    await run([main, events], 4);
    expect(events.mirror.inStep()).toBe(false);
  });

  it('two servers given one name do not both read: the lease is held by one run', async () => {
    const first = server('same');
    const second = server('same');
    await run([first], 1);
    await run([second], 1);
    expect(first.roster.report().role).toBe('reader');
    expect(second.roster.report().role).toBe('follower');
    expect(second.roster.report().reader).toBe('same');
  });

  it('a server whose mirror is off never takes the lease; a reader whose mirror turns off gives it up', async () => {
    const plain = server('plain');
    plain.mirror.off = true;
    await run([plain], 4);
    expect(plain.roster.report()).toMatchObject({ on: true, role: 'follower', reader: null });
    const main = server('main');
    await run([plain, main], 2);
    expect(main.roster.report().role).toBe('reader');
    main.mirror.off = true;
    await run([plain, main], 24);
    expect(main.roster.report().role).toBe('follower');
    const events = server('events');
    await run([plain, main, events], 2);
    expect(events.roster.report().role).toBe('reader');
  });

  it("a member the reader doubts is doubted in the followers' copies until a newer record of theirs is written", async () => {
    const { main, events } = await readerAndFollower();
    const m1 = member('m1');
    main.mirror.read(m1);
    await run([main, events], 4);
    expect(events.mirror.held.get('m1')).toMatchObject({ id: 'm1' });
    expect(events.mirror.doubted.has('m1')).toBe(false);
    main.mirror.doubt(m1);
    await run([main, events], 4);
    expect(events.mirror.doubted.has('m1')).toBe(true);
    expect(events.mirror.held.get('m1')).toMatchObject({ id: 'm1', status: 'ACTIVE' });
    // The reader's re-read: a newer record, not doubted.
    const late = server('late');
    main.mirror.read({ ...m1, status: 'SUSPENDED', readAt: 2 });
    await run([main, late], 4);
    expect(late.mirror.held.get('m1')).toMatchObject({ status: 'SUSPENDED' });
    expect(late.mirror.doubted.has('m1')).toBe(false);
  });

  it("the reader writes a full read's members in one step; a step never runs beside another", async () => {
    const main = server('main');
    await run([main], 1);
    const many = Array.from({ length: 1_200 }, (_, i) => member(`m${String(i).padStart(4, '0')}`));
    main.mirror.listener?.(many, []);
    const before = tables.states.get(KEY)!.version;
    await Promise.all([main.roster.tick(), main.roster.tick()]);
    expect(tables.members.filter((row) => row.record !== null)).toHaveLength(1_200);
    // Three writes of 500 at most, in one step: the second call found the first under way.
    expect(tables.states.get(KEY)!.version - before).toBe(3);
  });

  it('a follower writes through what it learned itself', async () => {
    const { events } = await readerAndFollower();
    events.mirror.listener?.([member('stranger')], []);
    await run([events], 1);
    const later = server('late');
    await run([later], 3);
    expect(later.mirror.held.has('stranger')).toBe(true);
  });
});

describe('failover', () => {
  it('when the reader stops, another takes the lease once it runs out and goes on from the shared audit position', async () => {
    const { main, events } = await readerAndFollower();
    main.mirror.read(member('m1'));
    main.mirror.completeRead(4242);
    await run([main, events], 4);
    expect(events.mirror.complete).toBe(true);

    // The reader stops answering (its process killed): nothing more from it.
    await run([events], (LEASE_MS - 5_000) / 500);
    expect(events.roster.report().role).toBe('follower');
    await run([events], 12);
    expect(events.roster.report().role).toBe('reader');
    expect(events.mirror.leads).toEqual([
      { audit: { at: 4242 }, fullReadAt: expect.any(Number), complete: true },
    ]);
  });
});

describe('a database that fails', () => {
  it('turns sharing off with one warning; the server reads alone; back on when it answers', async () => {
    const { main, events } = await readerAndFollower();
    main.mirror.completeRead(7);
    await run([main, events], 4);

    tables.failing = 'timeout';
    await run([main, events], 10);
    expect(events.roster.report().on).toBe(false);
    expect(events.logger.warnings.filter((w) => w.includes('did not answer'))).toHaveLength(1);
    expect(events.mirror.following).toBe(false);
    expect(events.mirror.leads).toHaveLength(1);
    expect(events.mirror.inStep()).toBe(false);

    // What it learned alone meanwhile is written once the database answers.
    events.mirror.listener?.([member('learned-alone')], []);
    tables.failing = null;
    await run([main, events], 14);
    expect(events.roster.report().on).toBe(true);
    expect(main.roster.report().on).toBe(true);
    const late = server('late');
    await run([late], 3);
    expect(late.mirror.held.has('learned-alone')).toBe(true);
  });
});

describe('rows that do not parse', () => {
  it('are ignored with one warning', async () => {
    const main = server('main');
    await run([main], 1);
    main.mirror.read(member('m1'));
    await run([main], 2);
    tables.plantMember({
      key_hash: KEY,
      member_id: 'bad',
      license: 'license:bad',
      record: '{"id": 3',
      read_at: 1,
      version: tables.states.get(KEY)!.version,
    } as never);
    const events = server('events');
    await run([events, main], 6);
    expect(events.mirror.held.has('m1')).toBe(true);
    expect(events.mirror.held.has('bad')).toBe(false);
    expect(events.logger.warnings.filter((w) => w.includes('could not be read'))).toHaveLength(1);
  });

  it('one of a version the state has not reached does not carry a follower past the rows a write later gives it', async () => {
    const main = server('main');
    await run([main], 1);
    const next = tables.states.get(KEY)!.version + 1;
    tables.plantMember({
      key_hash: KEY,
      member_id: 'zzz',
      license: 'license:zzz',
      record: '{"id": 3',
      read_at: 1,
      version: next,
    } as never);
    const events = server('events');
    await run([events], 2);
    // The reader's next write takes that version: its members sort before the planted row.
    main.mirror.read(member('m1'));
    await run([main, events], 4);
    expect(tables.members.find((row) => row.member_id === 'm1')?.version).toBe(next);
    expect(events.mirror.held.has('m1')).toBe(true);
  });
});

describe('one budget', () => {
  it("each server adds its requests to the key's counts and reads what the others spent", async () => {
    const main = server('main');
    const events = server('events');
    // Named alike by mistake (the same project name): still another server.
    const twin = server('main');
    await run([main, events, twin], 2);
    main.sent.requests = 7;
    events.sent.requests = 3;
    twin.sent.requests = 2;
    await run([main, events, twin], 3, 1_000);
    expect(main.roster.report().budget).toEqual({ minute: 12, day: 12 });
    // The others' last minute, and each other server's part of it.
    const sent = (minute: number) => ({ minute, recent: true });
    expect(main.roster.othersUsage()).toEqual({ minute: 5, day: 5, servers: [sent(3), sent(2)] });
    expect(events.roster.othersUsage()).toEqual({ minute: 9, day: 9, servers: [sent(7), sent(2)] });
    expect(twin.roster.othersUsage()).toEqual({ minute: 10, day: 10, servers: [sent(7), sent(3)] });
  });

  it('none while the database fails: each server keeps its own share', async () => {
    const main = server('main');
    await run([main], 3);
    tables.failing = 'failed';
    await run([main], 3);
    expect(main.roster.othersUsage()).toBeNull();
  });
});
