import { AuditFeed } from '../../../src/features/audit/audit-feed';
import { decodeMirror, encodeMirror, type SavedMirror } from '../../../src/features/mirror/saved-mirror';
import { silentLogger } from '../../../src/platform/ports';
import type { FakeClock } from '../../roster/client/fake-roster';
import { mirrorRig, type RigOptions, until } from './fake-community';

export type Rig = ReturnType<typeof mirrorRig>;

/**
 * The service's audit log on the fake clock (the service's time is the clock's), listed as the
 * service lists it: `createdAt.after` exclusive, oldest first, at most a read's size. Every read
 * is one request here; `reads` keeps them.
 */
export class FakeAuditLog {
  readonly entries: Record<string, unknown>[] = [];
  readonly reads: { newest: boolean; after: string | undefined }[] = [];
  readonly gaps: string[] = [];
  /** Reads fail (the service cannot answer the audit log). */
  failing = false;
  private next = 0;

  constructor(private readonly clock: FakeClock) {}

  /** An entry naming `id` (a member or assignment id), stamped now. */
  write(id: string): void {
    this.entries.push({
      id: `e${++this.next}`,
      createdAt: new Date(this.clock.now()).toISOString(),
      ref: id,
    });
  }

  /** `count` entries naming nothing, a service millisecond apart up to now. */
  burst(count: number): void {
    const end = this.clock.now();
    for (let i = 0; i < count; i++)
      this.entries.push({ id: `e${++this.next}`, createdAt: new Date(end - count + 1 + i).toISOString() });
  }

  /** The feed a server would run over this log, with the rig's service. */
  feedFor(rig: Rig, passSize = 2000): AuditFeed {
    const sorted = () => [...this.entries].sort((a, b) => stamp(a) - stamp(b));
    return new AuditFeed({
      list: async (query) => {
        const after = query['createdAt.after'] as string | undefined;
        this.reads.push({ newest: false, after });
        if (this.failing) throw new Error('audit log unavailable');
        const from = after === undefined ? Number.NEGATIVE_INFINITY : Date.parse(after);
        return sorted()
          .filter((e) => stamp(e) > from)
          .slice(0, passSize);
      },
      passSize,
      newest: async () => {
        this.reads.push({ newest: true, after: undefined });
        if (this.failing) throw new Error('audit log unavailable');
        return sorted().reverse().slice(0, 2);
      },
      catalog: rig.catalog,
      online: rig.online,
      players: rig.players,
      cache: rig.members,
      clock: rig.clock,
      logger: silentLogger,
      intervalMs: 60_000,
      gap: (reason) => this.gaps.push(reason),
    });
  }
}

function stamp(entry: Record<string, unknown>): number {
  return Date.parse(String(entry.createdAt));
}

/**
 * A first run as the resource runs it: departments and ranks loaded, the feed anchored and
 * followed, the first full read done, a read of two entries since (so the feed has a position).
 */
export async function firstRun(options: RigOptions = {}, passSize?: number) {
  const rig = mirrorRig(options);
  const log = new FakeAuditLog(rig.clock);
  const feed = log.feedFor(rig, passSize);
  await rig.catalog.load();
  rig.sync.follow(feed);
  rig.sync.begin();
  await feed.anchor();
  await until(rig.clock, () => rig.sync.report().state.kind === 'up');
  log.write('m-200');
  await rig.clock.advance(1_000);
  log.write('m-201');
  await feed.poll();
  return { rig, log, feed };
}

/** The resource stops: the snapshot's mirror part, written and read back as JSON. */
export async function stopAndSave(rig: Rig): Promise<SavedMirror> {
  const saved = rig.sync.toSave(rig.catalog.index.catalog);
  await rig.close();
  if (saved === null) throw new Error('nothing to save');
  const decoded = decodeMirror(JSON.parse(JSON.stringify(encodeMirror(saved))));
  if (!('saved' in decoded)) throw new Error(decoded.problem);
  return decoded.saved;
}

/** The same server started again on the same clock and community, with a new feed over the log. */
export function restarted(first: Rig, log: FakeAuditLog, options: RigOptions = {}) {
  const rig = mirrorRig(options, { clock: first.clock, community: first.community });
  return { rig, feed: log.feedFor(rig) };
}
