import {
  ADMIT,
  check,
  crashAndKeyCells,
  type Expected,
  matches,
  type Online,
  says,
  seconds,
  show,
} from './cells';
import { holdsWithin, maxInRolling60s, sleep, type Timed } from './rig';
import type { OnError } from './rows';
import type { RowOutcome } from './run';
import { type Person, REQUIRED_COURSE, TrainingRig } from './training-rig';
import type { TrainingFaultRow } from './training-rows';
import { pauseCheck, sentAfterStop } from './wire';

/** The same scaled-down time as the roster rows: a 2 s gate, 0.5 s requests, a refresh every 2 s. */
const TIMEOUT_SECONDS = 2;
/**
 * The learning service's request ceiling, scaled like the gate: the default 60 a minute against a
 * 15 s deadline is 450 against this 2 s one. (At 60 the token bucket hands out one request a second,
 * and a join's check, which has half the deadline, would wait out its whole budget in the queue.)
 */
const PER_MINUTE = 450;
const BASE_CONFIG = {
  api: { timeoutMs: 500 },
  refresh: { intervalSeconds: 2 },
  cache: { ttlSeconds: 1, negativeTtlSeconds: 1 },
  training: { perMinute: PER_MINUTE },
};
/** As long as the roster rows' faults: past every retry chain, with background refreshes running into it. */
const FAULT_MS = 8000;
/** When the two waves of joining players start, after the fault began. */
const WAVES_AT_MS = [1200, 4500];
/** How long online players may take to show their training again after the fault. */
const ONLINE_BACK_MS = 5000;

const UNAVAILABLE: Expected = {
  admitted: false,
  reason: /training check is unavailable right now/,
  says: 'unavailable',
};
const NOT_TRAINED = {
  admitted: false,
  reason: new RegExp(`have not completed the training this server requires: ${REQUIRED_COURSE}\\.`),
  says: `not completed ${REQUIRED_COURSE}`,
} satisfies Expected;
const NOT_LINKED: Expected = {
  admitted: false,
  reason: /not linked to your academy account yet\. To link it, open \S+ .*enter the code [A-Z2-9]{6}/,
  says: 'not linked, with a link code',
};
/** Never a refusal for training while the service cannot answer, unless the known completions say so. */
const SAYS_UNTRAINED = /not completed|not trained|not linked/i;

type Kind = 'trained' | 'untrained' | 'unlinked';
const KINDS: readonly Kind[] = ['trained', 'untrained', 'unlinked'];
const LETTER: Record<Kind, string> = { trained: 'T', untrained: 'U', unlinked: 'N' };

/** What the learning service itself decides. */
const TRUTH: Record<Kind, Expected> = { trained: ADMIT, untrained: NOT_TRAINED, unlinked: NOT_LINKED };

/** What `gate.onError` may decide while the learning service cannot answer. */
function underPolicy(kind: Kind, onError: OnError): readonly Expected[] {
  if (onError === 'allow') return [ADMIT];
  if (onError === 'deny') return [UNAVAILABLE];
  if (kind === 'trained') return [ADMIT];
  // An untrained linked player may be refused on the completions known before the fault.
  return kind === 'untrained' ? [NOT_TRAINED, UNAVAILABLE] : [UNAVAILABLE];
}

/**
 * Runs one learning row: two trained players online, the fault on, a trained, an untrained and an
 * unlinked player joining twice through it, the fault off, a trained player decided by the service
 * again; measures every column on the way. `unhandledSince(t)` as for the roster rows.
 */
export async function runTrainingRow(
  row: TrainingFaultRow,
  unhandledSince: (t: number) => string[],
): Promise<RowOutcome> {
  const startedAt = Date.now();
  const rig = await TrainingRig.start({
    ...BASE_CONFIG,
    ...(row.config?.rateLimit ? { rateLimit: row.config.rateLimit } : {}),
    training: { ...BASE_CONFIG.training, ...row.config?.training },
    gate: {
      timeoutSeconds: row.gateTimeoutSeconds ?? TIMEOUT_SECONDS,
      onError: row.onError,
      requireCourses: [REQUIRED_COURSE],
    },
  });
  try {
    const outcome = await measure(rig, row);
    rig.server.stopResource('roster'); // writes the snapshot and the alias file: more files to search
    return {
      fault: row.fault,
      onError: row.onError,
      ...outcome,
      ...crashAndKeyCells(rig.server, unhandledSince(startedAt), rig.keyLeaks(), 'a key'),
    };
  } finally {
    await rig.close();
  }
}

async function measure(
  rig: TrainingRig,
  row: TrainingFaultRow,
): Promise<Omit<RowOutcome, 'fault' | 'onError' | 'crash' | 'key'>> {
  const timeoutSeconds = row.gateTimeoutSeconds ?? TIMEOUT_SECONDS;
  /** Every deferral ends within gate.timeoutSeconds + 1 s. */
  const deadlineMs = timeoutSeconds * 1000 + 1000;
  /** A trained player is decided by the service again within two gate deadlines of the fault's end. */
  const defaultRecoveryMs = 2 * timeoutSeconds * 1000;
  const policyProblems: string[] = [];
  const onlineProblems: string[] = [];
  const waits: Timed[] = [];
  const timed = async (person: Person, name: string) => {
    const result = await rig.connect(person, name);
    waits.push(result);
    return result;
  };
  const judge = (result: Timed, allowed: readonly Expected[]) => {
    if (allowed.some((e) => matches(result.decision, e))) return;
    const { decision } = result;
    const forTraining = !decision.admitted && SAYS_UNTRAINED.test(decision.reason);
    policyProblems.push(
      `${result.name}: ${show(decision)}, expected ${allowed.map(says).join(' or ')}${forTraining ? ' (refused for training because of the outage)' : ''}`,
    );
  };
  const inStep = (p: Online) => {
    const seen = rig.trainingOf(p.id);
    const bag = seen.bag as { linked?: boolean; completions?: { title?: string }[] } | null;
    return (
      rig.memberOf(p.id) === p.member &&
      seen.completed &&
      bag?.linked === true &&
      (bag.completions ?? []).some((c) => c.title === REQUIRED_COURSE) &&
      JSON.stringify(seen.exported) === JSON.stringify(bag)
    );
  };
  const describe = (p: Online) => {
    const seen = rig.trainingOf(p.id);
    return `${p.name}: member ${rig.memberOf(p.id) ?? 'null'}, hasCompletedCourse ${seen.completed}, state bag ${JSON.stringify(seen.bag)}`;
  };

  const ready = () =>
    rig.rosterLog().some((l) => l.includes('connected to the roster')) &&
    rig.rosterLog().some((l) => l.includes('training: connected to the learning service')) &&
    rig.learning.counters.log.some(
      (e) => e.endpoint === 'GET /api/public/v1/discord/completions' && e.status === 200,
    );
  if (!(await holdsWithin(ready, 10_000)))
    throw new Error('the resource did not connect to both services before the fault');

  // Before the fault: two trained players online, their training known. Setup, not measurement:
  // a join the deadline caught (a loaded machine) is simply tried again, and one admitted on the
  // training already known (the check's budget ran out) is as good as one the service answered:
  // `inStep` below waits until their training is loaded either way.
  const admitted = async (person: Person, name: string): Promise<Online> => {
    for (let attempt = 0; attempt < 10; attempt++) {
      const each = `${name}${attempt === 0 ? '' : `-${attempt}`}`;
      const license = rig.freshLicense();
      const { decision } = await rig.connect(person, each, license);
      if (decision.admitted && rig.basisOf(each) === 'roster') {
        const member = rig.roster.data.members.find((m) => m.gameLicense === license)!;
        return { id: decision.id, member: member.id, name };
      }
      if (decision.admitted) rig.server.dropPlayer(decision.id);
    }
    throw new Error(`warm-up: ${name} was never admitted by both services`);
  };
  const online = await Promise.all([admitted('onlineA', 'A'), admitted('onlineB', 'B')]);
  if (!(await holdsWithin(() => online.every(inStep), 5000)))
    throw new Error(`warm-up: online players' training not loaded: ${online.map(describe).join('; ')}`);

  // The fault, with the background refresh running into it, and two waves of players joining.
  const faultAt = Date.now();
  row.begin(rig);
  const probes: Timed[] = [];
  for (const [wave, at] of WAVES_AT_MS.entries()) {
    await sleep(faultAt + at - Date.now());
    const results = await Promise.all(KINDS.map((kind) => timed(kind, `${LETTER[kind]}${wave}`)));
    for (const [i, result] of results.entries()) {
      const kind = KINDS[i]!;
      judge(result, row.answers ? [TRUTH[kind]] : underPolicy(kind, row.onError));
      // Players admitted through the fault ask how to link (their answer goes to chat).
      if (result.decision.admitted) rig.server.executeCommand('linktraining', result.decision.id);
    }
    probes.push(...results);
    rig.server.executeCommand('roster training');
    rig.server.executeCommand('roster status');
  }
  if (!online.every(inStep)) {
    onlineProblems.push(
      `during the fault: ${online
        .filter((p) => !inStep(p))
        .map(describe)
        .join('; ')}`,
    );
  }
  await sleep(faultAt + FAULT_MS - Date.now());

  // The fault ends: a trained player must be admitted on the learning service's answer again, by
  // itself; then an untrained and an unlinked one are decided by it too (not by the policy).
  const endedAt = Date.now();
  row.end(rig);
  const budget = row.recoveryBudgetMs ?? defaultRecoveryMs;
  const recoveryProblems: string[] = [];
  const decidedByService = async (kind: Kind, prefix: string): Promise<number | null> => {
    let last = '';
    for (let attempt = 0; Date.now() - endedAt <= budget; attempt++) {
      const name = `${prefix}${attempt}`;
      const result = await timed(kind, name);
      if (matches(result.decision, TRUTH[kind]) && !rig.trainingFellBack(name)) return Date.now() - endedAt;
      last = `${name}: ${show(result.decision)}${rig.trainingFellBack(name) ? ' (the policy decided)' : ''}`;
      await sleep(budget > defaultRecoveryMs ? 500 : 100);
    }
    recoveryProblems.push(
      `no ${kind} player decided by the learning service (${says(TRUTH[kind])}) within ${seconds(budget)} of the fault's end; last ${last}`,
    );
    return null;
  };
  const recoveredAfter = await decidedByService('trained', 'R');
  const othersAfter =
    recoveredAfter === null
      ? []
      : await Promise.all([decidedByService('untrained', 'UR'), decidedByService('unlinked', 'NR')]);
  const allAfter = othersAfter.every((t) => t !== null) ? Math.max(0, ...othersAfter.map(Number)) : null;

  if (!(await holdsWithin(() => online.every(inStep), ONLINE_BACK_MS))) {
    onlineProblems.push(
      `${seconds(ONLINE_BACK_MS)} after the fault: ${online
        .filter((p) => !inStep(p))
        .map(describe)
        .join('; ')}`,
    );
  }
  rig.server.executeCommand('roster training');

  const maxWait = Math.max(...waits.map((w) => w.waitedMs));
  // Judged on the resource's time: the test process's own stalls (a busy machine) taken off.
  const late = waits.filter((w) => w.waitedMs - w.stalledMs > deadlineMs);
  const times = rig.requestTimes();
  const most = maxInRolling60s(times);
  const limitProblems =
    most > PER_MINUTE ? [`${most} requests within 60 s, over training.perMinute ${PER_MINUTE}`] : [];
  // After the client has a 429, no request may leave it until the pause that 429 sets is over.
  const { problems: pauseProblems, summary: pauses } = pauseCheck(rig.wire, row.pausedUntil);
  limitProblems.push(...pauseProblems);
  // A refused key: from the 401 the client had to the fault's end, before the first re-check (15 s
  // after the 401), nothing may be sent: not the second wave's joins, not refreshes.
  const refused = row.suspends
    ? sentAfterStop(rig.wire, (a) => a.status === 401, faultAt + FAULT_MS)
    : undefined;
  const whileRefused = refused ? refused.sent.length : null;
  if (refused && !refused.stop) limitProblems.push('the client never had a 401');
  if (refused?.stop && refused.sent.length > 0)
    limitProblems.push(
      `${refused.sent.length} request(s) sent while the key was refused, e.g. ${refused.sent[0]!.path} ${refused.sent[0]!.at - refused.stop.at} ms after the 401`,
    );
  const quiet = whileRefused === null ? '' : `; ${whileRefused} sent while refused`;
  const peak10s = Math.max(0, ...times.map((t) => times.filter((u) => u >= t && u < t + 10_000).length));
  const stillOut = online.filter((p) => !inStep(p)).length;
  const refusedUntrained = probes.filter(
    (p) => !p.decision.admitted && NOT_TRAINED.reason.test(p.decision.reason),
  ).length;
  return {
    deadline: check(
      late.map((w) => `${w.name} waited ${w.waitedMs} ms (the machine stalled ${w.stalledMs} ms of it)`),
      `${seconds(maxWait)} max${timeoutSeconds === TIMEOUT_SECONDS ? '' : ` (≤ ${seconds(deadlineMs)})`}, ${waits.length} players`,
    ),
    policy: check(
      policyProblems,
      `${probes.length} players${refusedUntrained > 0 ? `, ${refusedUntrained} untrained refused on known completions` : ''}`,
    ),
    limits: check(limitProblems, `${most}/${PER_MINUTE} in 60 s, ${peak10s} in 10 s${pauses}${quiet}`),
    recovery: check(
      recoveryProblems,
      recoveredAfter === null
        ? 'none'
        : `after ${seconds(recoveredAfter)}${allAfter === null ? '' : `, all after ${seconds(allAfter)}`}`,
    ),
    online: check(onlineProblems, `${online.length - stillOut}/${online.length} in step`),
  };
}
