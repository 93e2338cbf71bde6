import {
  ADMIT,
  check,
  type Expected,
  matches,
  maxInRolling60s,
  type Online,
  says,
  seconds,
  show,
} from './cells';
import type { Timed } from './rig';
import type { OnError } from './rows';
import { admittedId, type Side, warmUpJoin } from './run';
import { BASE_CONFIG, FAULT_MS, sleep, TIMEOUT_SECONDS } from './scale';
import { type Person, REQUIRED_COURSE, TrainingRig } from './training-rig';
import { TRAINING_FAULT_ROWS, type TrainingFaultRow } from './training-rows';
import { pauseCheck, quietCheck } from './wire';

/**
 * The learning service's request ceiling, scaled like the gate: the default 60 a minute against a
 * 15 s deadline is 450 against this 2 s one. (At 60 the token bucket hands out one request a second,
 * and a join's check, which has half the deadline, would wait out its whole budget in the queue.)
 */
const PER_MINUTE = 450;
/** When the two waves of joining players start, after the fault began. */
const WAVES_AT_MS = [1200, 4500];

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
 * The learning service's faults (`gate.requireCourses` set, the roster healthy): two trained players
 * online, a trained, an untrained and an unlinked player joining twice through the fault, then a
 * trained player decided by the service again, and the others after it.
 */
export const TRAINING_SIDE: Side<TrainingFaultRow, TrainingRig> = {
  rows: TRAINING_FAULT_ROWS,
  legend:
    'Rows marked "learning:" are faults of the learning service ' +
    'with `gate.requireCourses` set and the roster healthy: policy: a trained, an untrained and an ' +
    'unlinked player joining twice during the fault (never refused as untrained because of it; ' +
    '`cached` may refuse the untrained one on completions known before); limits: requests the learning ' +
    'service saw against `training.perMinute` (and the most in any 10 s); recovery: time to a trained ' +
    "player admitted on the service's answer, then the others decided by it too; online players: their " +
    'training (export, state bag, `hasCompletedCourse`) kept through the fault; no key: both keys.',
  slots: 4,
  services: 'both services',
  leakNoun: 'a key',
  onlineBackMs: 5000,
  finalCommand: 'roster training',

  start: (row) =>
    TrainingRig.start({
      ...BASE_CONFIG,
      ...(row.config?.rateLimit ? { rateLimit: row.config.rateLimit } : {}),
      training: { perMinute: PER_MINUTE, ...row.config?.training },
      gate: {
        timeoutSeconds: row.gateTimeoutSeconds ?? TIMEOUT_SECONDS,
        onError: row.onError,
        requireCourses: [REQUIRED_COURSE],
      },
    }),

  ready: (rig) =>
    rig.rosterLog().some((l) => l.includes('connected to the roster')) &&
    rig.rosterLog().some((l) => l.includes('training: connected to the learning service')) &&
    rig.learning.counters.log.some(
      (e) => e.endpoint === 'GET /api/public/v1/discord/completions' && e.status === 200,
    ),

  // Two trained players online. One admitted on the training already known (the check's budget ran
  // out) is as good as one the service answered: the runner waits until their training is loaded.
  async warmUp(rig) {
    const admitted = async (person: Person, name: string): Promise<Online> => {
      let license = '';
      const decision = await warmUpJoin(
        rig,
        name,
        (each) => {
          license = rig.freshLicense();
          return rig.connect(person, each, license);
        },
        (d) => d.admitted,
      );
      const member = rig.roster.data.members.find((m) => m.gameLicense === license)!;
      return { id: admittedId(decision), member: member.id, name };
    };
    return Promise.all([admitted('onlineA', 'A'), admitted('onlineB', 'B')]);
  },

  inStep(rig, p) {
    const seen = rig.trainingOf(p.id);
    const bag = seen.bag as { linked?: boolean; completions?: { title?: string }[] } | null;
    return (
      rig.memberOf(p.id) === p.member &&
      seen.completed &&
      bag?.linked === true &&
      (bag.completions ?? []).some((c) => c.title === REQUIRED_COURSE) &&
      JSON.stringify(seen.exported) === JSON.stringify(bag)
    );
  },

  describe(rig, p) {
    const seen = rig.trainingOf(p.id);
    return `${p.name}: member ${rig.memberOf(p.id) ?? 'null'}, hasCompletedCourse ${seen.completed}, state bag ${JSON.stringify(seen.bag)}`;
  },

  async duringFault(rig, row, run, faultAt) {
    const probes: Timed[] = [];
    for (const [wave, at] of WAVES_AT_MS.entries()) {
      await sleep(faultAt + at - Date.now());
      const results = await Promise.all(
        KINDS.map((kind) => run.timed(rig.connect(kind, `${LETTER[kind]}${wave}`))),
      );
      for (const [i, result] of results.entries()) {
        const kind = KINDS[i]!;
        const { decision } = result;
        const forTraining = !decision.admitted && SAYS_UNTRAINED.test(decision.reason);
        run.judge(
          result,
          row.answers === 'all' ? [TRUTH[kind]] : underPolicy(kind, row.onError),
          forTraining ? ' (refused for training because of the outage)' : '',
        );
        // Players admitted through the fault ask how to link (their answer goes to chat).
        if (decision.admitted) rig.server.executeCommand('linktraining', decision.id);
      }
      probes.push(...results);
      rig.server.executeCommand('roster training');
      rig.server.executeCommand('roster status');
    }
    await run.inStepWithin('during the fault', 0);
    const refusedUntrained = probes.filter(
      (p) => !p.decision.admitted && NOT_TRAINED.reason.test(p.decision.reason),
    ).length;
    return `${probes.length} players${refusedUntrained > 0 ? `, ${refusedUntrained} untrained refused on known completions` : ''}`;
  },

  // A trained player must be admitted on the learning service's answer again, by itself; then an
  // untrained and an unlinked one are decided by it too (not by the policy).
  async recover(rig, row, run, endedAt) {
    const budgetMs = row.recoveryBudgetMs ?? run.recoveryMs;
    const problems: string[] = [];
    const decidedByService = async (kind: Kind, prefix: string) => {
      let last = '';
      const after = await run.firstDecided({
        prefix,
        endedAt,
        budgetMs,
        pauseMs: budgetMs > run.recoveryMs ? 500 : 100,
        join: (name) => rig.connect(kind, name),
        decided: (result) => matches(result.decision, TRUTH[kind]) && !rig.trainingFellBack(result.name),
        missed: (result) => {
          last = `${result.name}: ${show(result.decision)}${rig.trainingFellBack(result.name) ? ' (the policy decided)' : ''}`;
        },
      });
      if (after === null)
        problems.push(
          `no ${kind} player decided by the learning service (${says(TRUTH[kind])}) within ${seconds(budgetMs)} of the fault's end; last ${last}`,
        );
      return after;
    };
    const first = await decidedByService('trained', 'R');
    const others =
      first === null
        ? []
        : await Promise.all([decidedByService('untrained', 'UR'), decidedByService('unlinked', 'NR')]);
    const all = others.every((t) => t !== null) ? Math.max(0, ...others.map(Number)) : null;
    return check(
      problems,
      first === null ? 'none' : `after ${seconds(first)}${all === null ? '' : `, all after ${seconds(all)}`}`,
    );
  },

  limits(rig, row, run, faultAt) {
    const times = rig.requestTimes();
    const most = maxInRolling60s(times);
    const problems = [...run.limitProblems];
    if (most > PER_MINUTE)
      problems.push(`${most} requests within 60 s, over training.perMinute ${PER_MINUTE}`);
    // After the client has a 429, no request may leave it until the pause that 429 sets is over.
    const pauses = pauseCheck(rig.wire, row.pausedUntil);
    problems.push(...pauses.problems);
    // A refused key: from the 401 the client had to the fault's end, before the first re-check (15 s
    // after the 401), nothing may be sent: not the second wave's joins, not refreshes.
    const refused = row.suspends
      ? quietCheck(rig.wire, (a) => a.status === 401, faultAt + FAULT_MS, { answer: '401', state: 'refused' })
      : { problems: [], summary: '' };
    problems.push(...refused.problems);
    const peak10s = Math.max(0, ...times.map((t) => times.filter((u) => u >= t && u < t + 10_000).length));
    return check(
      problems,
      `${most}/${PER_MINUTE} in 60 s, ${peak10s} in 10 s${pauses.summary}${refused.summary}`,
    );
  },
};
