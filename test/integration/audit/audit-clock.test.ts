/**
 * The audit log read on the service's clock, from the built bundle against the mock roster over
 * loopback: entries stamped far ahead of the service's time (one node with a fast clock) are acted
 * on, but never move where the log is read from.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventually, type Harness, startHarness } from '../harness';

const AUDIT = 'GET /api/v1/audit-logs';
const HOUR = 3_600_000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  vi.useRealTimers();
});

const mirrored = (harness: Harness) =>
  eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 10_000);

/** Audit reads the service answered from request `mark` on. */
const auditReadsSince = (harness: Harness, mark: number) =>
  harness.mock.counters.log.slice(mark).filter((e) => e.endpoint === AUDIT && e.status === 200);

/** Waits for `n` more answered audit reads than at `mark`. */
const auditReads = (harness: Harness, mark: number, n: number) =>
  eventually(() => auditReadsSince(harness, mark).length >= n, 8000);

/** The index (from `mark`) of the first members request naming `license`. */
const memberReread = (harness: Harness, mark: number, license: string) =>
  eventually(() => {
    const at = harness.mock.counters.log
      .slice(mark)
      .findIndex(
        (e) =>
          e.endpoint === 'GET /api/v1/members' &&
          new URLSearchParams(e.query).getAll('gameLicense').includes(license),
      );
    return at >= 0 ? at : undefined;
  }, 8000);

describe('the audit log on the service clock', () => {
  it('two entries stamped an hour ahead: acted on and named by doctor; a member suspended afterwards is refused within an audit interval and a pass, and the saved position is not a future one', async () => {
    // Time this server can move on: two minutes pass below, so a read position that followed the
    // stamps would have settled on them.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const harness = await startHarness({ config: { refresh: { intervalSeconds: 3600, auditSeconds: 1 } } });
    h = harness;
    await mirrored(harness);
    const [named, suspended] = harness.mock.data.members.filter((m) => m.status === 'ACTIVE') as [
      (typeof harness.mock.data.members)[number],
      (typeof harness.mock.data.members)[number],
    ];
    await auditReads(harness, harness.mock.counters.log.length, 1);

    const fastMark = harness.mock.counters.log.length;
    const ahead = Date.now() + HOUR;
    harness.mock.data.appendRawAudit({
      id: 'aud_fast_1',
      action: 'member.update',
      resourceType: 'member',
      resourceId: named.id,
      createdAt: new Date(ahead).toISOString(),
    });
    harness.mock.data.appendRawAudit({
      id: 'aud_fast_2',
      action: 'note',
      createdAt: new Date(ahead + 1_000).toISOString(),
    });
    // Acted on: the member the first one names is read again.
    await memberReread(harness, fastMark, named.gameLicense);

    await vi.advanceTimersByTimeAsync(150_000);
    // Reading on time again after the jump, so the mirror answers joins.
    await auditReads(harness, harness.mock.counters.log.length, 3);

    const mark = harness.mock.counters.log.length;
    harness.mock.dashboard.setStatus(suspended.id, 'SUSPENDED');
    const reread = await memberReread(harness, mark, suspended.gameLicense);
    // The read in flight when the change was made, then the next: no more.
    const readsBefore = harness.mock.counters.log
      .slice(mark, mark + reread)
      .filter((e) => e.endpoint === AUDIT);
    expect(readsBefore.length).toBeLessThanOrEqual(2);
    // Audit reads never overlap: one more read after the re-read means its pass is done.
    await auditReads(harness, mark + reread, 1);
    const asked = harness.mock.counters.log.length;
    const decision = await harness.server.connectPlayer({
      name: 'Away',
      identifiers: [suspended.gameLicense],
    }).decision;
    expect(!decision.admitted && decision.reason).toMatch(/status is SUSPENDED/);
    // Decided from the record the feed read: the join itself asked nothing.
    expect(harness.mock.counters.log.slice(asked).filter((e) => e.endpoint !== AUDIT)).toEqual([]);

    // Reads still start from the service's time, not from the stamps an hour ahead.
    const last = new URLSearchParams(auditReadsSince(harness, mark).at(-1)!.query);
    expect(Date.parse(last.get('createdAt.after') ?? '1970-01-01')).toBeLessThan(Date.now());

    const from = harness.server.log.lines.length;
    harness.server.executeCommand('roster doctor');
    const doctor = await eventually(() => {
      const text = harness.server.log.lines.slice(from).join('\n');
      return /stamped ahead of the service's clock/.test(text) ? text : undefined;
    }, 8000);
    expect(doctor).toMatch(
      /! audit feed: 2 entries stamped ahead of the service's clock since start, the last \(aud_fast_2\) (59|60) min ahead, seen \d+ s ago/,
    );

    harness.server.stopResource('roster');
    const saved = JSON.parse(readFileSync(join(harness.folder, 'roster-snapshot.json'), 'utf8'));
    expect(Date.parse(saved.mirror.audit.at)).toBeLessThanOrEqual(Date.now());
  }, 60_000);
});
