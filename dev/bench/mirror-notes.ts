import { LOOKUP_HOLD_MS } from '../../src/roster/client/member-lookups';
import type { FleetJoins, FleetResult } from './fleet';
import { percentile } from './join-storm';
import type { MirrorResults } from './mirror-report';
import { bytes, fixed, integer, ms } from './table';

/** The storm's strangers (licenses the roster does not hold) are named "Stranger n" (population.ts). */
const isStranger = (name: string) => name.startsWith('Stranger ');

/** BENCHMARKS.md: how each mirror scenario is run. */
export const MIRROR_METHOD = `## The roster on the server (mirror on)

Rows marked "mirror on" keep the default config and say whether the mirror had completed its
first read (the resource logged "the roster mirror holds N members") before the joins began; the
first read's own requests are counted in rows of their own, never in a join row.

- **Mirror first read.** A fresh mock of 5,000 members (50 ms answers) and the resource on an
  idle server; every request from the resource's start until the mirror holds the roster
  (whoami, departments, ranks and the audit feed included). The target is one request per page
  of 100 members and of 100 assignments, plus 5; the pace at most 60 in any 60 s (half the
  key's 120).
- **Quiet server, mirror on.** The quiet server above (400 members) with the mirror on: the lone
  join and the ten one after another start once the mirror is complete (3 s after it). "requests
  for the joins" counts the mock's log from the lone join's connection until every one of them
  had full data.
- **Join storm, mirror on.** The join storm above (1,000 players in 10 s, every fifth a stranger,
  2,000 members) starting 3 s after the mirror completed. Requests are counted from the first
  connection; the strangers are still looked up (the mirror never says "not on the roster").
  The naive gate's column is its own storm, the same players. The members' p99 is held to one
  frame: a member decided from the mirror is let in on the next frame, so waits up to FXServer's
  50 ms and the frame's own work (5 ms allowed); the fleet's members row likewise.
- **Join storm right after a cold start, mirror on and off.** The same storm, but the players
  connect the moment the resource has verified its key and loaded departments and ranks: with the
  mirror on, its first read (2,000 members) has just begun and runs beside the joins. The second
  column is the same storm with \`mirror.enabled: false\`; the target is its p99 and one frame
  more. "requests sent for the joins" leaves out the mirror's own pages (\`request-log.ts\` tells them
  apart by their query); the next row counts everything from the first connection on.
- **2 servers × 2,000 in 60 s, cold.** Two game servers on one key, each its own OS process (as in
  the fleet below), start together against a mock of 4,000 members; the players connect as soon as
  both have verified the key, alternating servers, every fifth a stranger, over 60 s, so both
  first reads run beside all of the joins. Mirror on, and again with mirror off (second column).
- **Changes during the first read.** A mock of 2,000 members, the resource with
  \`gate.departments\` ["LSPD", "BCSO", "SAHP"] and \`refresh.auditSeconds\` 15 (so the wait below
  is short). From the mirror's first page until it is complete, once a second a member picked at
  random (read already or not yet) goes through a change made in the dashboard and written to the
  audit log as the service writes it (\`dev/bench/staff-changes.ts\`): a suspension, a transfer out
  of the allowed departments (assignments deleted, one created elsewhere), the member deleted, a
  reinstatement, a transfer into them. Once the read is complete and an audit interval and a pass
  (30 s) have gone by, every member and every member deleted connects (2,000 in 20 s) and each
  decision is checked against the mock's data as it is then.
- **Audit entries stamped an hour ahead.** A mock of 1,000 members, \`refresh.auditSeconds\` 15,
  the mirror complete: two audit entries stamped one hour (and a second) ahead are written, as a
  service node with a fast clock would. 150 s later (past the feed's two-minute overlap and an
  interval) 40 offline members are suspended at once, and every 1.5 s one of them tries to join
  for the first time; the row is the try from which on every one was refused, against the bound
  of an audit interval and a pass (30 s).
- **Fleet, each server its own process.** Four game servers on one key, each an OS process of its
  own (the bench forks itself: \`dev/bench/fleet-server.ts\` builds its own FXServer emulator and
  loads \`dist/server.js\` from its own resource folder), all against one mock in the parent
  process over loopback. They start together: the cold start, four first reads at once on one
  key, counted until the last mirror is complete. 3 s later the players connect, alternating
  servers (4 × 500 in 60 s with 2,000 members seeded; 4 × 1,000 in 30 s with 4,000), every fifth a
  stranger: "after the first reads", when the key's minute is still spent on them. Then everyone
  leaves and 65 s later (the key's minute and the caches' 60 s "not on the roster" behind) the same
  players join again: "key's minute clear", the figure the targets are about. Latency is measured
  in each server's own process, from \`connectPlayer\` to the decision.
- **Restart.** A server whose mirror is complete admits 1,000 known players (members of any
  status); the server stops (the resource writes \`roster-snapshot.json\` as it stops) and a new
  one starts from the same resource folder; 3 s after its key check all 1,000 reconnect within
  10 s. "member requests" counts \`GET /api/v1/members\` and \`GET /api/v1/department-assignments\`
  from the restart until every admitted player had full data, and until the mirror was complete
  again.
- **Steady state, mirror and audit feed on.** The steady state above (the core on the virtual
  clock, 1,000 online) with the audit feed and \`MirrorSync\` wired as
  \`src/features/mirror/index.ts\` does it (default config: a pass every
  \`refresh.auditSeconds\`, a full re-read every \`mirror.resyncMinutes\` = 6 h). The first read
  and two minutes after it are not counted; then six simulated hours are (one full re-read falls
  in them), averaged per hour.
- **Memory per mirrored member.** \`RosterMirror\` filled the way a full read fills it
  (\`compact\` then \`replaceAll\`) with the 10,000 members of a seeded community, each record
  freshly parsed from JSON with its assignments, ranks expanded; heap plus ArrayBuffers after
  three forced GCs, minus the baseline, divided by 10,000.
`;

function endpoints(byEndpoint: Record<string, number>, digits = 0): string {
  return Object.entries(byEndpoint)
    .sort(([, a], [, b]) => b - a)
    .map(([k, v]) => `${digits > 0 ? fixed(digits)(v) : integer(v)} × ${k}`)
    .join(', ');
}

/** BENCHMARKS.md findings about the mirror, from what the run measured. */
export function mirrorFindings(m: MirrorResults): string[] {
  const notes: string[] = [];
  if (m.firstRead) {
    const f = m.firstRead;
    notes.push(`- **Mirror first read.** ${integer(f.requests)} requests in ${ms(f.completeMs)} for
  ${integer(f.members)} members and ${integer(f.assignments)} assignments (${endpoints(f.byEndpoint)}),
  at most ${integer(f.maxIn60s)} in any 60 s (the mirror's own pages: ${integer(f.mirrorMaxIn60s)}, the rest the
  resource's start-up); the mirror then held ${integer(f.held)} members.`);
  }
  if (m.quiet) {
    const q = m.quiet;
    notes.push(`- **Quiet server, mirror on.** Lone join ${ms(q.loneMs)}, ${q.sequence.count} one after another
  p50 ${ms(q.sequence.p50Ms)} (max ${ms(q.sequence.maxMs)}), with ${integer(q.joinRequests)} request(s)${
    q.joinRequests > 0 ? ` (${endpoints(q.joinRequestsByEndpoint)})` : ''
  } meanwhile. A decision from the mirror waits only for the emulator's next frame (20 a second,
  FXServer's own pace): a member connecting just after a frame (as each one of the sequence does,
  right after the one before was let in on a frame) waits about 50 ms, the lone join as long as
  the frame was away.`);
  }
  if (m.storm) {
    const s = m.storm.summary;
    const strangers = m.storm.samples.filter((x) => isStranger(x.player.name));
    const latencies = (list: typeof m.storm.samples) =>
      list.map((x) => x.latencyMs ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
    const members = m.storm.samples.filter((x) => !isStranger(x.player.name));
    notes.push(`- **Join storm, mirror on.** ${integer(s.requests)} requests (${endpoints(s.byEndpoint)}),
  p50 ${ms(s.p50Ms)}, p99 ${ms(s.p99Ms)}, max ${ms(s.maxMs)}; ${integer(s.wrong)} wrong. Members (decided from
  the mirror): p99 ${ms(percentile(latencies(members), 0.99))}; the ${integer(strangers.length)} strangers (looked up, as
  the mirror never says "not on the roster"): p50 ${ms(percentile(latencies(strangers), 0.5))}, p99 ${ms(
    percentile(latencies(strangers), 0.99),
  )}. The lookups went out at ${s.timeline
    .map((t) => `${fixed(2)(t.atMs / 1000)} s (${t.values})`)
    .join(', ')} (licenses carried): a batch smaller than full waits \`LOOKUP_HOLD_MS\` (${ms(
    LOOKUP_HOLD_MS,
  )}, \`src/roster/client/member-lookups.ts\`) after the join lane's previous request, so with the members
  answered from the mirror the strangers alone go out in small batches about that far apart, and
  the storm's p99 is a stranger's wait for their batch. The first read before the storm cost
  ${integer(m.storm.mirror?.firstReadRequests ?? 0)} requests (start-up included) over ${ms(m.storm.mirror?.firstReadMs ?? 0)}.`);
  }
  if (m.coldStorm) {
    const { on, off } = m.coldStorm;
    notes.push(`- **Join storm right after a cold start.** Mirror on: p50 ${ms(on.summary.p50Ms)}, p99 ${ms(on.summary.p99Ms)},
  ${integer(on.summary.requests - mirrorShare(on.byKind))} lookups and ${integer(mirrorShare(on.byKind))} of the mirror's pages from the first connection
  on; mirror off: p50 ${ms(off.summary.p50Ms)}, p99 ${ms(off.summary.p99Ms)}, ${integer(off.summary.requests)} requests. The mirror's reads wait
  while a join waits on the rate limiter (a join-lane request queued for a permit, or join lookups held
  to be sent together) and for 250 ms after (\`src/features/mirror/mirror-pacer.ts\`), so the pages it
  sends in a storm are those it had sent before the first player waited, and at most one each 10 s
  (no read yields longer).`);
  }
  if (m.twoServersCold) {
    const { on, off } = m.twoServersCold;
    const line = (f: typeof on) =>
      `p50 ${ms(f.joins.summary.p50Ms)}, p99 ${ms(f.joins.summary.p99Ms)}, ${integer(f.joins.summary.rateLimited)} 429s, ${integer(
        f.joins.summary.wrong,
      )} wrong, ${integer(f.joins.summary.requests)} requests (${endpoints(f.joins.byKind)})`;
    notes.push(`- **2 servers × 2,000 in 60 s, cold.** Mirror on: ${line(on)}; ${integer(on.mirrorsCompleteAfter ?? 0)} of
  the ${on.servers} mirrors complete when the joins were over. Mirror off: ${line(off)}.`);
  }
  if (m.changes) {
    const c = m.changes;
    notes.push(`- **Changes during the first read.** ${endpoints(c.changes)} while the read ran
  (${ms(c.readMs)} from the resource's start); after ${ms(c.waitedMs)} more, ${integer(c.players)} joins: ${integer(c.wrong)} wrong
  (${integer(c.wrongAdmits)} admitted, ${integer(c.wrongRefusals)} refused${
    c.wrong > 0 ? `; by the change their member went through: ${endpoints(c.wrongByChange)}` : ''
  }), ${integer(c.checkRequests)} requests for them.`);
  }
  if (m.futureStamps) {
    const f = m.futureStamps;
    notes.push(`- **Audit entries stamped an hour ahead.** The suspended members tried once each, spread over
  ${ms(f.triedMs)} after their suspension; ${integer(f.admitted)} of ${integer(f.tries)} were admitted (they tried before the
  next audit read); ${
    Number.isFinite(f.refusedWithinMs)
      ? `from ${ms(f.refusedWithinMs)} on every try was refused`
      : 'the suspension never reached the door'
  } (bound: ${ms(f.boundMs)}).`);
  }
  for (const fleet of [m.fleetLong, m.fleetDense]) if (fleet) notes.push(fleetFinding(fleet));
  if (m.restart) {
    const r = m.restart;
    notes.push(`- **Restart.** The first server left a \`roster-snapshot.json\` of ${integer(r.snapshotMembers)} members
  (after deciding ${integer(r.players)} joins from its mirror); the new server loaded ${integer(r.snapshotLoaded)} from it. Its mirror was ${r.mirrorCompleteBeforeReconnects ? '' : 'not '}complete when the players came
  back, ${ms(r.mirrorCompleteMs)} after the restart it was. Until every reconnected player had full data:
  ${integer(r.memberRequests)} member requests (${integer(r.lookupRequests)} per-player lookups, ${integer(
    r.listRequests,
  )} pages of the mirror's read); until the mirror was complete again: ${integer(r.memberRequestsUntilMirror)}.
  ${
    r.memberRequests === 0
      ? 'The snapshot held the whole mirror and the audit catch-up from its position brought it up to date: the restart cost that catch-up, not a request per player.'
      : 'Each member request here is a returning player looked up (batched) or a page of a full read: the snapshot did not let the mirror catch up.'
  }`);
  }
  if (m.steady) {
    const s = m.steady;
    notes.push(`- **Steady state, mirror and audit feed on.** ${integer(s.requestsPerHour)} requests per hour
  (${endpoints(s.byKind ?? s.byEndpoint, 1)}), ${fixed(3)(s.requestsPerHour / s.onlinePlayers)} per online player
  per hour, the mirror holding ${integer(s.mirrorHeld ?? 0)} members. The mirror's own share is
  ${integer(mirrorShare(s.byKind ?? {}))} per hour (its pass each \`refresh.auditSeconds\` and the full re-read
  every \`mirror.resyncMinutes\`, spread over the hours); the rest is the audit feed, the hourly
  safety-net refresh of the players online and the catalog.`);
  }
  if (m.memory) {
    notes.push(`- **Memory per mirrored member.** ${bytes(m.memory.bytesPerMember)} at ${integer(m.memory.members)}
  members (the empty mirror: ${bytes(m.memory.structureBytes)}).`);
  }
  return notes;
}

/** Requests (or requests per hour) the mirror sent for itself (`request-log.ts` marks them). */
export function mirrorShare(byKind: Record<string, number>): number {
  return Object.entries(byKind)
    .filter(([kind]) => kind.includes('(mirror'))
    .reduce((sum, [, n]) => sum + n, 0);
}

function fleetFinding(f: FleetResult): string {
  const cold = f.coldStart;
  const round = (r: FleetJoins, when: string) => {
    const s = r.summary;
    const split = splitLatencies(r.samples);
    return `${when}: ${integer(s.requests)} requests (${endpoints(r.byKind)}), at most ${integer(r.maxIn60s)} in
  any 60 s, ${integer(s.rateLimited)} 429s; p50 ${ms(s.p50Ms)}, p99 ${ms(s.p99Ms)}, max ${ms(s.maxMs)}${split}; ${integer(s.wrong)}
  wrong (${integer(s.undecided)} undecided).`;
  };
  return `- **${f.servers} servers, each its own process, ${integer(f.settled.summary.players)} joins.**${
    cold
      ? ` Cold start: ${integer(cold.requests)} requests (${endpoints(cold.byEndpoint)}) until every mirror
  was complete after ${ms(cold.completeMs)}, at most ${integer(cold.maxIn60s)} in any 60 s (the mirrors' own pages:
  ${integer(cold.mirrorMaxIn60s)}), ${integer(cold.rateLimited)} 429s. Each server's mirror keeps to half of the key's
  minute as its own limiter knows it, so ${f.servers} first reads together would ask for ${fixed(1)(f.servers / 2)} times the key;
  each also waits while the key's last 60 s, pieced together from the service's \`X-RateLimit-*\` windows
  (the mock counts calendar minutes), hold half of the key's minute, so together they keep to that half.`
      : ''
  } ${round(f.afterFirstReads, `Joining ${fixed(0)(f.afterFirstReads.afterMs / 1000)} s after the first reads`)} ${round(
    f.settled,
    `Everyone left; ${fixed(0)(f.settled.afterMs / 1000)} s later, the key's minute and the caches' "not on the roster" behind, the same players again`,
  )}${
    f.settled.summary.p99Ms > 1_000
      ? ` The p99 over all joins is a stranger's (every fifth player): members are decided from the
  mirror in a frame, strangers are looked up, each server holding a small batch \`LOOKUP_HOLD_MS\`
  after its join lane's previous request, and ${f.servers} servers' lookups sharing the key's 120 a minute.`
      : ''
  }`;
}

/** The p99 of connect → decision of the members (decided from the mirror) or of the strangers alone. */
export function p99Of(
  samples: readonly { player: { name: string }; latencyMs: number | null }[],
  strangers: boolean,
): number {
  return percentile(
    samples
      .filter((x) => isStranger(x.player.name) === strangers)
      .map((x) => x.latencyMs ?? Number.POSITIVE_INFINITY)
      .sort((a, b) => a - b),
    0.99,
  );
}

/** ", members p99 …, strangers p99 …" when the samples are at hand. */
export function splitLatencies(
  samples: readonly { player: { name: string }; latencyMs: number | null }[],
): string {
  if (samples.length === 0) return '';
  return ` (members p99 ${ms(p99Of(samples, false))}, strangers p99 ${ms(p99Of(samples, true))})`;
}
