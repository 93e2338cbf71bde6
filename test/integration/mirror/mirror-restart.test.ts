import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../dev/mock-http/mock-counters';
import { eventually, type Harness, startHarness, strangerLicense } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const mirrored = (harness: Harness, from = 0) =>
  eventually(
    () => harness.server.log.lines.slice(from).some((l) => /the roster mirror holds \d+ members/.test(l)),
    20_000,
  );
const caughtUp = (harness: Harness, from: number) =>
  eventually(
    () => harness.server.log.lines.slice(from).find((l) => l.includes('caught up on the audit log')),
    10_000,
  );

/**
 * Where the requests of the run started after `stoppedAt` begin in the mock's log: at its key
 * check. A request the stopped run had sent can still reach the mock after the stop (a busy
 * machine reads it late), and is not the new run's to count.
 */
function runFrom(harness: Harness, stoppedAt: number): number {
  const { log } = harness.mock.counters;
  const at = log.findIndex((e, index) => index >= stoppedAt && e.path === '/api/v1/whoami');
  if (at === -1) throw new Error('the restarted run has not checked its key');
  return at;
}

/** A request as a failed expectation should show it: what was asked, and when. */
const said = (e: RequestLogEntry) => `${e.path}${e.query} at ${new Date(e.time).toISOString()}`;

/** Requests the mock saw from `from` on, by kind. */
function requestsSince(harness: Harness, from: number) {
  const sent = harness.mock.counters.log.slice(from);
  const query = (e: RequestLogEntry) => new URLSearchParams(e.query);
  return {
    audit: sent.filter((e) => e.path === '/api/v1/audit-logs'),
    /** Members and assignments read for joins and re-reads (by license or member id). */
    lookups: sent.filter(
      (e) =>
        (e.path === '/api/v1/members' || e.path === '/api/v1/department-assignments') &&
        !query(e).has('page'),
    ),
    /** The mirror's own paged reads. */
    pages: sent.filter((e) => query(e).has('page')),
  };
}

/** `roster status`'s mirror line. */
async function statusLine(harness: Harness): Promise<string> {
  const from = harness.server.log.lines.length;
  harness.server.executeCommand('roster status');
  return eventually(() => harness.server.log.lines.slice(from).find((line) => line.includes('mirror:')));
}

/** The mirror is up and the audit feed has read the log to its end once: it has a position. */
async function upAndFollowing(harness: Harness): Promise<void> {
  await mirrored(harness);
  for (let tries = 0; !/last audit catch-up \d+ s ago/.test(await statusLine(harness)); tries++) {
    if (tries === 100) throw new Error('the audit feed never read the log');
    await harness.server.nextTick();
  }
}

/** Reads the log every second, so the first run's feed has a position soon. */
const EVERY_SECOND = { refresh: { auditSeconds: 1 } };

/** Rewrites the saved snapshot: its last full read (and save) `ageMs` ago, the cache part emptied. */
function ageSnapshot(harness: Harness, ageMs: number): void {
  const file = join(harness.folder, 'roster-snapshot.json');
  const snapshot = JSON.parse(readFileSync(file, 'utf8'));
  snapshot.savedAt = Date.now() - ageMs;
  snapshot.mirror.fullReadAt = Date.now() - ageMs;
  // Only the mirror can then know the members.
  snapshot.members = [];
  writeFileSync(file, JSON.stringify(snapshot));
}

describe('the roster mirror across a restart', () => {
  it('with a recent snapshot: a change made in the dashboard while down is honoured, 1,000 members rejoin with no member request, the catch-up costs at most 3 audit requests', async () => {
    h = await startHarness({ members: 1000, config: EVERY_SECOND });
    await upAndFollowing(h);
    const active = h.mock.data.members.filter((m) => m.status === 'ACTIVE');
    const suspended = active[3]!;
    h.server.stopResource('roster');
    const saved = JSON.parse(readFileSync(join(h.folder, 'roster-snapshot.json'), 'utf8'));
    expect(saved.version).toBe(2);
    expect(saved.mirror.members).toHaveLength(1000);
    // Where the feed had read the log to, on the service's clock: never a future position.
    expect(Date.parse(saved.mirror.audit.at)).toBeLessThanOrEqual(Date.now());

    h.mock.dashboard.setStatus(suspended.id, 'SUSPENDED');
    // The catch-up runs as the feed starts, whatever the interval: a longer one after the restart
    // keeps the mirror in step (2.5 intervals) while a busy machine runs the 1,000 joins below.
    writeFileSync(join(h.folder, 'config.json'), JSON.stringify({ refresh: { auditSeconds: 10 } }));
    const stoppedAt = h.mock.counters.log.length;
    const logFrom = h.server.log.lines.length;
    h.server.startResource('roster', h.folder);
    const line = await caughtUp(h, logFrom);
    expect(line).toMatch(/in 1 read\(s\): its 1000 members' joins are decided without a request again/);
    const catchUp = requestsSince(h, runFrom(h, stoppedAt));
    // One read of the log from the saved position; no anchor on the newest entries, no full read.
    expect(catchUp.audit).toHaveLength(1);
    expect(new URLSearchParams(catchUp.audit[0]!.query).get('sort')).toBe('createdAt');
    expect(catchUp.pages.map(said)).toEqual([]);
    // The member the entry named was read again.
    expect(catchUp.lookups.some((e) => e.query.includes(encodeURIComponent(suspended.gameLicense)))).toBe(
      true,
    );
    expect(await statusLine(h)).toMatch(
      /mirror: 1000 members held, .*caught up from snapshot at \d\d:\d\d:\d\d UTC \(1 audit read\)/,
    );

    const joinsFrom = h.mock.counters.log.length;
    const refused = await h.server.connectPlayer({ name: 'S', identifiers: [suspended.gameLicense] })
      .decision;
    expect(!refused.admitted && refused.reason).toMatch(/status is SUSPENDED/);
    let admitted = 0;
    const everyone = h.mock.data.members.filter((m) => m.id !== suspended.id);
    for (let start = 0; start < everyone.length; start += 100) {
      const batch = everyone
        .slice(start, start + 100)
        .map(
          (m, i) => h!.server.connectPlayer({ name: `P${start + i}`, identifiers: [m.gameLicense] }).decision,
        );
      for (const decision of await Promise.all(batch)) if (decision.admitted) admitted++;
    }
    expect(admitted).toBe(active.length - 1);
    const joins = requestsSince(h, joinsFrom);
    expect(joins.lookups.map(said)).toEqual([]);
    expect(joins.pages.map(said)).toEqual([]);
  }, 60_000);

  it('with a snapshot older than mirror.resyncMinutes: not used for decisions; the roster is read in full, and a change the audit log never showed is honoured', async () => {
    h = await startHarness({ config: EVERY_SECOND });
    await upAndFollowing(h);
    h.server.stopResource('roster');
    ageSnapshot(h, 361 * 60_000);
    // Changed without an audit entry: no catch-up could see it; only a read of the roster does.
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    h.mock.data.setMemberStatus(member.id, 'SUSPENDED');
    const stoppedAt = h.mock.counters.log.length;
    const logFrom = h.server.log.lines.length;
    h.server.startResource('roster', h.folder);
    expect(await statusLine(h)).toMatch(
      /mirror: stale snapshot: outage policy only \(its last full read is older than mirror\.resyncMinutes\); 200 members held/,
    );
    await mirrored(h, logFrom);
    const decision = await h.server.connectPlayer({ name: 'S', identifiers: [member.gameLicense] }).decision;
    expect(!decision.admitted && decision.reason).toMatch(/status is SUSPENDED/);
    const requestsFrom = runFrom(h, stoppedAt);
    const sent = requestsSince(h, requestsFrom);
    expect(sent.pages.length).toBeGreaterThan(0);
    // The feed anchors on the newest entries anew: nothing resumes from the stale position.
    const first = await eventually(() => requestsSince(h!, requestsFrom).audit[0], 10_000);
    expect(new URLSearchParams(first.query).get('sort')).toBe('-createdAt');
    expect(h.server.log.lines.slice(logFrom).join('\n')).not.toContain('caught up on the audit log');
  });

  it("with a key of another community: the snapshot's roster is dropped, not caught up on the new community's log; one of its members is a stranger here", async () => {
    h = await startHarness({ config: EVERY_SECOND });
    await upAndFollowing(h);
    h.server.stopResource('roster');
    // The key now belongs to another community, whose roster lacks this member and whose audit
    // log never named them.
    h.mock.data.data.community.id = 'com_another';
    const other = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    h.mock.data.removeMember(other.id);
    const logFrom = h.server.log.lines.length;
    h.server.startResource('roster', h.folder);
    const settled = await eventually(
      () =>
        h!.server.log.lines
          .slice(logFrom)
          .find(
            (l) => l.includes('caught up on the audit log') || /the roster mirror holds \d+ members/.test(l),
          ),
      20_000,
    );
    expect(settled).toMatch(/the roster mirror holds 199 members/);
    expect(h.server.log.lines.slice(logFrom).join('\n')).toContain(
      'the roster mirror in the snapshot was not saved for this community',
    );
    const stranger = await h.server.connectPlayer({ name: 'X', identifiers: [other.gameLicense] }).decision;
    expect(!stranger.admitted && stranger.reason).toMatch(/not on the San Andreas Roleplay roster/);
  });

  it('a snapshot file far larger than one the resource writes is not read: the roster is read in full', async () => {
    h = await startHarness({ config: EVERY_SECOND });
    await upAndFollowing(h);
    h.server.stopResource('roster');
    const file = join(h.folder, 'roster-snapshot.json');
    const snapshot = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...snapshot, padding: 'x'.repeat(40 * 1024 * 1024) }));
    const logFrom = h.server.log.lines.length;
    h.server.startResource('roster', h.folder);
    await mirrored(h, logFrom);
    const said = h.server.log.lines.slice(logFrom).join('\n');
    expect(said).toMatch(
      /could not read the member snapshot: roster-snapshot\.json is 40 MB, larger than a snapshot can be/,
    );
    expect(said).not.toContain('loaded the roster mirror from the snapshot');
  });

  it('with a stale snapshot and the service down: a member in it is admitted as last known, a suspended one refused, a stranger told it is unavailable', async () => {
    h = await startHarness({
      config: { ...EVERY_SECOND, gate: { timeoutSeconds: 2 }, api: { timeoutMs: 500 } },
    });
    await upAndFollowing(h);
    h.server.stopResource('roster');
    ageSnapshot(h, 24 * 60 * 60_000);
    h.mock.faults.internal();
    h.server.startResource('roster', h.folder);
    const active = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const suspended = h.mock.data.members.find((m) => m.status === 'SUSPENDED')!;
    const known = await h.server.connectPlayer({ name: 'A', identifiers: [active.gameLicense] }).decision;
    expect(known).toMatchObject({ admitted: true });
    const refused = await h.server.connectPlayer({ name: 'S', identifiers: [suspended.gameLicense] })
      .decision;
    expect(!refused.admitted && refused.reason).toMatch(/status is SUSPENDED/);
    const stranger = await h.server.connectPlayer({ name: 'X', identifiers: [strangerLicense] }).decision;
    expect(!stranger.admitted && stranger.reason).toMatch(/unavailable/);
    expect(await statusLine(h)).toMatch(/mirror: stale snapshot: outage policy only/);
  });

  it("with a key of another community: the snapshot's last-known members are forgotten, so an outage does not admit them", async () => {
    h = await startHarness({
      config: { mirror: { enabled: false }, gate: { timeoutSeconds: 2 }, api: { timeoutMs: 500 } },
    });
    await eventually(() => h!.logText().includes('connected to the roster'));
    const member = h.mock.data.members.find((m) => m.status === 'ACTIVE')!;
    const first = await h.server.connectPlayer({ name: 'A', identifiers: [member.gameLicense] }).decision;
    if (!first.admitted) throw new Error(`A was refused: ${first.reason}`);
    // Gone before the restart: an online player is looked up again from the new community's
    // roster after the start, and that fresh answer would rightly be last known.
    h.server.dropPlayer(first.id);
    h.server.stopResource('roster');
    h.mock.data.data.community.id = 'com_another';
    const logFrom = h.server.log.lines.length;
    h.server.startResource('roster', h.folder);
    await eventually(() =>
      h!.server.log.lines.slice(logFrom).some((l) => l.includes("they are another community's")),
    );
    h.mock.faults.internal();
    const again = await h.server.connectPlayer({ name: 'A2', identifiers: [member.gameLicense] }).decision;
    expect(!again.admitted && again.reason).toMatch(/unavailable/);
  });
});
