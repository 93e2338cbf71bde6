import { ADMIT, check, type Expected, maxInRolling60s, seconds } from './cells';
import { RosterRig } from './roster-rig';
import { FAULT_ROWS, type FaultRow } from './roster-rows';
import type { OnError } from './rows';
import { admittedId, type Side, warmUpJoin } from './run';
import { BASE_CONFIG, holdsWithin, sleep, TIMEOUT_SECONDS } from './scale';
import { pauseCheck, quietCheck } from './wire';

const CONFIG = {
  ...BASE_CONFIG,
  // The outage policy of joins looked up one by one: the mirror would decide known members itself.
  mirror: { enabled: false },
};

const UNAVAILABLE: Expected = { admitted: false, reason: /unavailable right now/, says: 'unavailable' };
const SUSPENDED: Expected = { admitted: false, reason: /status is SUSPENDED/, says: 'status SUSPENDED' };
/** What the suspending faults answer: invalid key (401), no plan (402), address not allowed (403). */
const REFUSALS = new Set([401, 402, 403]);
const NOT_ON: Expected = { admitted: false, reason: /not on the .* roster/, says: 'not on the roster' };

type Kind = 'knownActive' | 'knownSuspended' | 'unseen' | 'stranger';

/** What the roster itself would decide. */
const TRUTH: Record<Kind, Expected> = {
  knownActive: ADMIT,
  knownSuspended: SUSPENDED,
  unseen: ADMIT,
  stranger: NOT_ON,
};

/** What `gate.onError` must decide while the service cannot answer. */
function underPolicy(kind: Kind, onError: OnError, known: boolean): Expected {
  if (onError === 'allow') return ADMIT;
  if (onError === 'deny' || !known) return UNAVAILABLE;
  if (kind === 'knownActive') return ADMIT;
  return kind === 'knownSuspended' ? SUSPENDED : UNAVAILABLE;
}

/**
 * The roster service's faults: members online and known, the fault on, a known, a suspended, an
 * unseen member and a stranger joining through it, the fault off, a new player decided from the
 * roster again.
 */
export const ROSTER_SIDE: Side<FaultRow, RosterRig> = {
  rows: FAULT_ROWS,
  legend:
    'deadline: longest wait of any connecting player; policy: players connecting during the fault; limits: most requests the service saw in any 60 s span against the ' +
    "key's per-minute limit, and after each 429 the client had, requests it still wrote before that 429's pause " +
    'was over (both timed inside the process, where the client writes and reads); recovery: time ' +
    "from the fault's end to a new player decided from the roster; " +
    'online players: players online through the fault (and members admitted during it) keep their data ' +
    'and are back in step afterwards, export and state bag alike; no key: log, events, state bags, client ' +
    'events and files searched for the key.',
  slots: 6,
  services: 'the roster',
  leakNoun: 'key',
  // Long enough for background refreshes (every 2 s) to bring online players back in step.
  onlineBackMs: 8000,
  finalCommand: 'roster status',

  start: (row) =>
    RosterRig.start(
      {
        ...CONFIG,
        api: { ...CONFIG.api, ...row.config?.api },
        ...(row.config?.rateLimit ? { rateLimit: row.config.rateLimit } : {}),
        gate: { timeoutSeconds: row.gateTimeoutSeconds ?? TIMEOUT_SECONDS, onError: row.onError },
      },
      row.proxy === true,
    ),

  ready: (rig) => rig.rosterLog().some((l) => l.includes('connected to the roster')),

  // Two members stay online, one is known and leaves, a suspended one was refused.
  async warmUp(rig) {
    const { onlineA, onlineB, known, suspended } = rig.cast;
    const fromRoster = (license: string, name: string, admit: boolean) =>
      warmUpJoin(
        rig,
        name,
        (each) => rig.connect(license, each),
        (decision) => decision.admitted === admit,
      );
    const [a, b, k] = await Promise.all([
      fromRoster(onlineA.gameLicense, 'A', true),
      fromRoster(onlineB.gameLicense, 'B', true),
      fromRoster(known.gameLicense, 'K0', true),
      fromRoster(suspended.gameLicense, 'S0', false),
    ]);
    rig.server.dropPlayer(admittedId(k));
    return [
      { id: admittedId(a), member: onlineA.id, name: 'A' },
      { id: admittedId(b), member: onlineB.id, name: 'B' },
    ];
  },

  inStep(rig, p) {
    const seen = rig.seenAs(p.id);
    return seen.exported === p.member && seen.bag === p.member;
  },

  describe(rig, p) {
    const seen = rig.seenAs(p.id);
    return `${p.name} (${p.member}): export ${seen.exported ?? 'null'}, state bag ${seen.bag ?? 'null'}`;
  },

  async duringFault(rig, row, run) {
    const { known, suspended, unseen } = rig.cast;
    await sleep(1200); // past cache.ttlSeconds: known records are only "last known" now
    const knownDuring = row.knownDuringFault ?? true;
    const kinds: Kind[] = ['knownActive', 'knownSuspended', 'unseen', 'stranger'];
    const probes = await Promise.all([
      run.timed(rig.connect(known.gameLicense, 'K')),
      run.timed(rig.connect(suspended.gameLicense, 'S')),
      run.timed(rig.connect(unseen.gameLicense, 'U')),
      run.timed(rig.connect(`license:${'e'.repeat(40)}`, 'X')),
    ]);
    probes.forEach((probe, i) => {
      const kind = kinds[i]!;
      if (row.answers === 'all' || (row.answers === 'stranger' && kind === 'stranger'))
        run.judge(probe, [TRUTH[kind]]);
      else
        run.judge(probe, [
          underPolicy(kind, row.onError, knownDuring),
          ...(row.mayAnswer ? [TRUTH[kind]] : []),
        ]);
    });
    rig.server.executeCommand('roster status');
    // Online players keep their data (after a restart: get it back from the snapshot, retries included).
    if (knownDuring) await run.inStepWithin('during the fault', 4000);

    if (row.suspends) {
      if (!(await holdsWithin(() => rig.rosterLog().some((l) => l.includes('Requests are stopped')), 5000)))
        run.limitProblems.push('the client never said it stopped sending');
      const quiet = await Promise.all([
        run.timed(rig.connect(rig.freshLicense(), 'Q0')),
        run.timed(rig.connect(rig.freshLicense(), 'Q1')),
      ]);
      for (const q of quiet) run.judge(q, [underPolicy('unseen', row.onError, knownDuring)]);
      rig.server.executeCommand('roster refresh all');
      await sleep(3000);
      // From the refusal the client had (its re-check comes a minute later) to now, nothing may leave.
      const stopped = quietCheck(rig.wire, (a) => REFUSALS.has(a.status), Date.now(), {
        answer: 'refusal',
        state: 'stopped',
      });
      run.limitProblems.push(...stopped.problems);
      run.limitNotes.push(stopped.summary);
    }

    // Members admitted during the fault are back in step afterwards too.
    for (const [probe, member] of [
      [probes[0]!, known],
      [probes[2]!, unseen],
    ] as const) {
      if (probe.decision.admitted)
        run.watched.push({ id: probe.decision.id, member: member.id, name: probe.name });
    }
    return `${probes.length + (row.suspends ? 2 : 0)} players`;
  },

  // A new player must be decided from the roster again, by itself.
  async recover(rig, row, run, endedAt) {
    const budgetMs = row.recoveryBudgetMs ?? run.recoveryMs;
    const after = await run.firstDecided({
      prefix: 'R',
      endedAt,
      budgetMs,
      pauseMs: budgetMs > run.recoveryMs ? 1000 : 100,
      join: (name) => rig.connect(rig.freshLicense(), name),
      decided: (result) => result.decision.admitted && rig.basisOf(result.name) === 'roster',
    });
    return check(
      after === null
        ? [`no new player decided from the roster within ${seconds(budgetMs)} of the fault's end`]
        : [],
      after === null ? 'none' : `after ${seconds(after)}`,
    );
  },

  limits(rig, row, run) {
    const perMinute = rig.mock.keyRecords.find((key) => key.name === 'full')!.perMinute;
    const most = maxInRolling60s(rig.requestTimes());
    const problems = [...run.limitProblems];
    if (most > perMinute) problems.push(`${most} requests within 60 s, over the key's ${perMinute}`);
    // After the client has a 429, no request may leave it until the pause that 429 sets is over.
    const pauses = pauseCheck(rig.wire, row.pausedUntil);
    problems.push(...pauses.problems);
    return check(problems, `${most}/${perMinute} in 60 s${pauses.summary}${run.limitNotes.join('')}`);
  },
};
