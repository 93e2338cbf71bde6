import { FakeClock, type FakeRequest, fakeRoster } from '../../roster/client/fake-roster';
import type { Outcome } from './model-decisions';
import type { EntryStyle } from './model-entries';
import type { Change, History, Step, Target } from './model-history';
import { decided, type Join, joinAll } from './model-joins';
import { seededRandom } from './model-random';
import { describeRun, describeViolation, type Phase, sinceStart, type Violation } from './model-report';
import { startModelResource } from './model-resource';
import { ModelRoster } from './model-roster';
import { ModelService } from './model-service';

/**
 * Runs one history: the resource, put together as the app does, reads the model service while the
 * model changes the roster, misstamps and garbles entries and fails requests; players join
 * throughout. What is judged, in this server's time:
 * - during the run, a join decided with no request never rests on a record that a change made
 *   more than one audit interval plus a pass ago has made wrong;
 * - after each quiet period (an audit interval plus a pass, no changes, no faults), every license
 *   is decided as the model's data decides it, with or without a request;
 * - after a long quiet period, every member is decided with no request (the mirror answers);
 * - then, in a whole outage, the outage policy (`cached`) admits exactly those the data admits:
 *   its last known record is the newest one read.
 */

export interface Verdict {
  violations: Violation[];
  /** Joins decided at the checks after quiet periods: with no request, and by a lookup. */
  joins: { memory: number; lookup: number };
  requests: number;
  virtualMs: number;
  /** The history as it happened, for a failure's message. */
  report(): string;
}

/** A pass of the audit feed, taken as long as its interval (as the mirror's own pass is). */
const passMs = (history: History) => history.auditSeconds * 1000;
/** Longer than the cache's TTL (600 s): a join then decided with no request is the mirror's. */
const LONG_QUIET_MS = 11 * 60_000;
/** How long a check after a quiet period waits at most for the mirror to answer joins again. */
const READ_WAIT_MS = 10 * 60_000;
export const START = Date.UTC(2025, 4, 1, 12);

export async function runHistory(history: History): Promise<Verdict> {
  const clock = new FakeClock(START);
  const auditMs = history.auditSeconds * 1000;
  const boundMs = auditMs + passMs(history);
  const roster = new ModelRoster(
    () => clock.now() + history.offsetMs,
    () => clock.now(),
    history.gate,
    { ...history.roster, seed: history.seed },
  );
  const service = new ModelService(roster, () => clock.now(), {
    offsetMs: history.offsetMs,
    perMinute: history.perMinute,
    random: seededRandom(history.seed ^ 0x5eed),
  });
  const { agent } = fakeRoster(clock, service.handler);
  // The app's schedule and backoff jitter with Math.random: seeded, a history replays exactly.
  const systemRandom = Math.random;
  Math.random = seededRandom(history.seed ^ 0x7a11);
  const resource = startModelResource({
    clock,
    dispatcher: agent,
    config: {
      refresh: { auditSeconds: history.auditSeconds },
      rateLimit: { perMinute: history.perMinute },
      gate: { requireStatus: history.gate.requireStatus, departments: history.gate.departments },
    },
  });
  const violations: Violation[] = [];
  const joins = { memory: 0, lookup: 0 };
  /**
   * Licenses whose join was answered with the status alone (a status the gate refuses): the
   * mirror keeps whole records only and lets those go, so their next join is looked up.
   */
  const statusOnly = new Set<string>();

  const wrong = (phase: Phase, join: Join, decision: Violation['decided'], allowed: Set<Outcome>) =>
    violations.push({
      at: clock.now(),
      phase,
      license: join.license,
      memberships: roster.membershipsOf(join.license),
      how: join.fromMemory ? 'no request' : 'a lookup',
      decided: decision,
      allowed: [...allowed],
      sharedLicense: roster.sharedLicense(join.license),
    });
  /** `sameAdmission`: only whether the player is let in counts (the outage policy's answer). */
  const judge = (phase: Phase, join: Join, allowed: Set<Outcome>, sameAdmission = false) => {
    const decision = join.resolution ? resource.outcomeOf(join.resolution) : 'no answer';
    const fine =
      decision !== 'no answer' &&
      (sameAdmission
        ? [...allowed].some((outcome) => (outcome === 'admit') === (decision === 'admit'))
        : allowed.has(decision));
    if (!fine) wrong(phase, join, decision, allowed);
  };
  const join = async (licenses: readonly string[]) => {
    const all = await joinAll(resource, service, licenses);
    for (const each of all)
      void each.promise.then((resolution) => {
        if (resolution.kind === 'answer' && resolution.partial) statusOnly.add(each.license);
      });
    return all;
  };

  try {
    for (const episode of history.episodes) {
      for (const step of episode) await play(step);
      // The changes still waiting for their request happen now; the faults end.
      for (let waited = 0; service.pendingArmed > 0 && waited < 2 * auditMs; waited += 5000)
        await clock.advance(5000);
      service.fireArmed();
      service.faults = null;
      await clock.advance(boundMs);
      // Everyone joins at the check, and each lookup's answer goes into the mirror: joining while
      // the first read still runs would mend what that read got wrong. The check waits for it.
      for (let waited = 0; !resource.members.mirrorAnswering && waited < READ_WAIT_MS; waited += 5000)
        await clock.advance(5000);
      const all = await join(roster.licenses());
      // Lookups on a key of 20 a minute take a while; no change or fault comes meanwhile.
      await decided(clock, all, READ_WAIT_MS);
      for (const each of all) {
        judge('after a quiet period', each, new Set([roster.expected(each.license)]));
        if (each.fromMemory) joins.memory++;
        else joins.lookup++;
      }
    }

    await clock.advance(LONG_QUIET_MS);
    const members = roster
      .licenses()
      .filter((license) => roster.expected(license) !== 'not_on_roster' && !statusOnly.has(license));
    const settledJoins = await join(members);
    for (const each of settledJoins)
      if (!each.fromMemory)
        wrong('after a long quiet period', each, 'a lookup', new Set([roster.expected(each.license)]));
    await decided(clock, settledJoins);

    service.down = true;
    await clock.advance(3 * auditMs);
    const inOutage = await join(roster.licenses());
    // Every request fails: a join the retries hold past the gate's watchdog is decided by it.
    await decided(clock, inOutage, resource.watchdogMs);
    for (const each of inOutage) each.resolution ??= resource.watchdog(each.license);
    for (const each of inOutage) judge('in an outage', each, new Set([roster.expected(each.license)]), true);
  } finally {
    // The roster client owns its pool, the model's dispatcher here: stopping closes it.
    await resource.stop();
    Math.random = systemRandom;
  }

  return {
    violations,
    joins,
    requests: service.log.length,
    virtualMs: clock.now() - START,
    report: () => describeRun(history, roster, resource, violations, START),
  };

  async function play(step: Step): Promise<void> {
    switch (step.kind) {
      case 'wait':
        await clock.advance(step.ms);
        return;
      case 'faults':
        service.faults = { until: clock.now() + step.ms, rate: step.rate, kinds: step.kinds };
        return;
      case 'change': {
        const make = () => apply(roster, step.change, step.style);
        if (step.on) service.arm(requestsOf(step.on.target), step.on.nth, make);
        else make();
        return;
      }
      case 'probe': {
        // The members a change touched join, and a few others; those decided with no request
        // must be decided as the data stood at some moment of the last audit interval plus a pass.
        const now = clock.now();
        const licenses = new Set([...roster.touched, ...roster.licenses().slice(0, 3)]);
        for (const each of await join([...licenses]))
          if (each.fromMemory)
            judge('during the run', each, roster.outcomesDuring(each.license, now - boundMs, now));
        return;
      }
    }
  }
}

/** The wrong decisions of a run, a line each (for a plain test's expectation). */
export function wrongDecisions(verdict: Verdict): string[] {
  return verdict.violations.map((v) => describeViolation(v, sinceStart(START)));
}

function apply(roster: ModelRoster, change: Change, style: EntryStyle): void {
  switch (change.kind) {
    case 'status':
      roster.setStatus(change.pick, change.status, style);
      return;
    case 'transfer':
      roster.transfer(change.pick, change.to, style);
      return;
    case 'drop-assignment':
      roster.dropAssignment(change.pick, style);
      return;
    case 'add-assignment':
      roster.addAssignment(change.pick, change.to, style);
      return;
    case 'add-member':
      roster.addMember(change.status, change.to, style);
      return;
    case 'rejoin':
      roster.rejoin(change.pick, style);
      return;
    case 'remove':
      roster.removeMember(change.pick, style);
      return;
  }
}

/** The requests an armed change waits for. */
function requestsOf(target: Target): (request: FakeRequest) => boolean {
  switch (target) {
    case 'members-list':
      return (r) => r.path === '/api/v1/members' && !r.query.has('gameLicense');
    case 'lookup':
      return (r) => r.path === '/api/v1/members' && r.query.has('gameLicense');
    case 'assignments-list':
      return (r) => r.path === '/api/v1/department-assignments' && !r.query.has('memberId');
    case 'audit':
      return (r) => r.path === '/api/v1/audit-logs';
  }
}
