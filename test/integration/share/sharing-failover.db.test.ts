import { describe, expect, it } from 'vitest';
import { eventually } from '../harness';
import { joins, rosterReads } from './fleet';
import { closeAfterEach, twoServers } from './two-servers';

const keep = closeAfterEach();

describe('two servers, one roster: the reader goes', () => {
  it('the reader stopped mid-audit-pass: the other takes over within the lease, from the shared audit position, and honours a suspension made meanwhile', async () => {
    const { h, events } = await twoServers(keep);
    const member = h.mock.data.members.filter((m) => m.status === 'ACTIVE')[2]!;
    // The reader is killed: its database and its audit pass hang, its lease is never given back.
    h.mock.faults.failPath('/api/v1/audit-logs', 'hang');
    await new Promise((resolve) => setTimeout(resolve, 400));
    h.database?.link.stall();
    h.server.stop();
    h.mock.faults.clear();
    h.mock.dashboard.setStatus(member.id, 'SUSPENDED');
    await eventually(
      () => /sharing .*this server reads it \(main's lease ran out\)/.test(events.logText()),
      45_000,
    );
    await eventually(async () => !(await joins(events.server, member.gameLicense, 'Late')), 20_000, 100);
    // Taken over from where main left the log: the audit log read, the roster not read again in full.
    // The join may be refused on a lookup before the new reader's first pass of the log: waited for.
    await eventually(() => rosterReads(events.seen).some((r) => r.path === '/api/v1/audit-logs'), 10_000);
    const reads = rosterReads(events.seen);
    const wholeLists = reads.filter(
      (r) => r.path === '/api/v1/members' && !r.query.has('gameLicense') && !r.query.has('createdAt.after'),
    );
    expect(wholeLists).toEqual([]);
  }, 120_000);
});
