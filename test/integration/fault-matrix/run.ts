import {
  ADMIT,
  type Check,
  check,
  crashAndKeyCells,
  type Expected,
  matches,
  type Online,
  says,
  seconds,
  show,
} from './cells';
import { holdsWithin, maxInRolling60s, Rig, sleep, type Timed } from './rig';
import type { FaultRow, OnError } from './rows';
import { pauseCheck, sentAfterStop } from './wire';

/** Scaled-down time: a 2 s gate, 0.5 s requests, a refresh every 2 s, records stale after 1 s. */
const TIMEOUT_SECONDS = 2;
const BASE_CONFIG = {
  api: { timeoutMs: 500 },
  gate: { timeoutSeconds: TIMEOUT_SECONDS },
  refresh: { intervalSeconds: 2 },
  cache: { ttlSeconds: 1, negativeTtlSeconds: 1 },
  // The outage policy of joins looked up one by one: the mirror would decide known members itself.
  mirror: { enabled: false },
};
export const DEADLINE_MS = TIMEOUT_SECONDS * 1000 + 1000;
/**
 * How long every fault lasts: longer than the client's whole retry chain (4 attempts of 0.5 s and
 * up to 3.5 s of backoff), so nothing started during the fault can succeed by outliving it.
 */
const FAULT_MS = 8000;
/** A new player should be decided from the roster again within two gate deadlines of the fault's end. */
const DEFAULT_RECOVERY_MS = 2 * TIMEOUT_SECONDS * 1000;
/** Long enough for background refreshes (every 2 s) to bring online players back in step. */
const ONLINE_BACK_MS = 8000;

export const COLUMNS = ['deadline', 'policy', 'limits', 'crash', 'recovery', 'online', 'key'] as const;
export type Column = (typeof COLUMNS)[number];

/** What one column of the table saw: a short measured value and anything that went wrong. */
export type { Check };

export type RowOutcome = { fault: string; onError: OnError } & Record<Column, Check>;

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
 * Runs one row: members online and known, the fault on, players connecting through it, the fault
 * off, a new player decided from the roster again; measures every column on the way.
 * `unhandledSince(t)` gives the unhandled rejections and exceptions the process saw since `t`.
 */
export async function runRow(row: FaultRow, unhandledSince: (t: number) => string[]): Promise<RowOutcome> {
  const startedAt = Date.now();
  const config = {
    ...BASE_CONFIG,
    api: { ...BASE_CONFIG.api, ...row.config?.api },
    ...(row.config?.rateLimit ? { rateLimit: row.config.rateLimit } : {}),
    gate: { ...BASE_CONFIG.gate, onError: row.onError },
  };
  const rig = await Rig.start(config, row.proxy === true);
  try {
    const outcome = await measure(rig, row);
    rig.server.stopResource('roster'); // writes the snapshot: one more file to search for the key
    return {
      fault: row.fault,
      onError: row.onError,
      ...outcome,
      ...crashAndKeyCells(rig.server, unhandledSince(startedAt), rig.keyLeaks(), 'key'),
    };
  } finally {
    await rig.close();
  }
}

async function measure(
  rig: Rig,
  row: FaultRow,
): Promise<Omit<RowOutcome, 'fault' | 'onError' | 'crash' | 'key'>> {
  const policyProblems: string[] = [];
  const limitProblems: string[] = [];
  const onlineProblems: string[] = [];
  const waits: Timed[] = [];
  const timed = async (license: string, name: string) => {
    const result = await rig.connect(license, name);
    waits.push(result);
    return result;
  };
  const judge = (result: Timed, expected: Expected, alsoFine?: Expected) => {
    if (matches(result.decision, expected) || (alsoFine && matches(result.decision, alsoFine))) return;
    const wanted = alsoFine ? `${says(expected)} or ${says(alsoFine)}` : says(expected);
    policyProblems.push(`${result.name}: ${show(result.decision)}, expected ${wanted}`);
  };
  const inStep = (p: Online) => {
    const seen = rig.seenAs(p.id);
    return seen.exported === p.member && seen.bag === p.member;
  };
  const describe = (p: Online) => {
    const seen = rig.seenAs(p.id);
    return `${p.name} (${p.member}): export ${seen.exported ?? 'null'}, state bag ${seen.bag ?? 'null'}`;
  };

  if (!(await holdsWithin(() => rig.rosterLog().some((l) => l.includes('connected to the roster')), 10_000)))
    throw new Error('the resource did not connect to the roster before the fault');
  const { members } = rig.mock.data;
  const actives = members.filter((m) => m.status === 'ACTIVE');
  const suspended = members.find((m) => m.status === 'SUSPENDED')!;
  const [onlineA, onlineB, known, unseen, ...fresh] = actives;
  const freshLicense = () => fresh.shift()!.gameLicense;

  // Before the fault: two members stay online, one is known and leaves, a suspended one was refused.
  // Setup, not measurement: a join the deadline caught (a loaded machine) is simply tried again.
  const fromRoster = async (license: string, name: string, admit: boolean) => {
    for (let attempt = 0; attempt < 10; attempt++) {
      const each = `${name}${attempt === 0 ? '' : `-${attempt}`}`;
      const { decision } = await rig.connect(license, each);
      if (decision.admitted === admit && rig.basisOf(each) === 'roster') return decision;
      if (decision.admitted) rig.server.dropPlayer(decision.id);
    }
    throw new Error(`warm-up: ${name} was never decided from the roster`);
  };
  const [a, b, k] = await Promise.all([
    fromRoster(onlineA!.gameLicense, 'A', true),
    fromRoster(onlineB!.gameLicense, 'B', true),
    fromRoster(known!.gameLicense, 'K0', true),
    fromRoster(suspended.gameLicense, 'S0', false),
  ]);
  if (!a?.admitted || !b?.admitted || !k?.admitted) throw new Error('warm-up: a member was refused');
  rig.server.dropPlayer(k.id);
  const online: Online[] = [
    { id: a.id, member: onlineA!.id, name: 'A' },
    { id: b.id, member: onlineB!.id, name: 'B' },
  ];
  if (!(await holdsWithin(() => online.every(inStep), 5000)))
    throw new Error('online players were not loaded before the fault');

  // The fault, with the background refresh of the online players running into it.
  const faultAt = Date.now();
  await row.begin(rig);
  await sleep(1200); // past cache.ttlSeconds: known records are only "last known" now
  const knownDuring = row.knownDuringFault ?? true;
  const kinds: Kind[] = ['knownActive', 'knownSuspended', 'unseen', 'stranger'];
  const probes = await Promise.all([
    timed(known!.gameLicense, 'K'),
    timed(suspended.gameLicense, 'S'),
    timed(unseen!.gameLicense, 'U'),
    timed(`license:${'e'.repeat(40)}`, 'X'),
  ]);
  probes.forEach((probe, i) => {
    const kind = kinds[i]!;
    if (row.answers === 'all' || (row.answers === 'stranger' && kind === 'stranger'))
      judge(probe, TRUTH[kind]);
    else judge(probe, underPolicy(kind, row.onError, knownDuring), row.mayAnswer ? TRUTH[kind] : undefined);
  });
  rig.server.executeCommand('roster status');
  // Online players keep their data (after a restart: get it back from the snapshot, retries included).
  if (knownDuring && !(await holdsWithin(() => online.every(inStep), 4000))) {
    onlineProblems.push(
      `during the fault: ${online
        .filter((p) => !inStep(p))
        .map(describe)
        .join('; ')}`,
    );
  }

  let quietCell = '';
  if (row.suspends) {
    if (!(await holdsWithin(() => rig.rosterLog().some((l) => l.includes('Requests are stopped')), 5000)))
      limitProblems.push('the client never said it stopped sending');
    const quiet = await Promise.all([timed(freshLicense(), 'Q0'), timed(freshLicense(), 'Q1')]);
    for (const q of quiet) judge(q, underPolicy('unseen', row.onError, knownDuring));
    rig.server.executeCommand('roster refresh all');
    await sleep(3000);
    // From the refusal the client had (its re-check comes a minute later) to now, nothing may leave.
    const { stop, sent } = sentAfterStop(rig.wire, (a) => REFUSALS.has(a.status), Date.now());
    quietCell = `; ${sent.length} sent while stopped`;
    if (!stop) limitProblems.push('the client never had a refusal');
    if (sent.length > 0)
      limitProblems.push(
        `${sent.length} request(s) sent while the key was refused, e.g. ${sent[0]!.path} ${sent[0]!.at - stop!.at} ms after the refusal`,
      );
  }
  await sleep(faultAt + FAULT_MS - Date.now());

  // The fault ends: a new player must be decided from the roster again, by itself.
  const endedAt = Date.now();
  await row.end(rig);
  const budget = row.recoveryBudgetMs ?? DEFAULT_RECOVERY_MS;
  let recoveredAfter: number | null = null;
  for (let attempt = 0; recoveredAfter === null && Date.now() - endedAt <= budget; attempt++) {
    const name = `R${attempt}`;
    const result = await timed(freshLicense(), name);
    if (result.decision.admitted && rig.basisOf(name) === 'roster') recoveredAfter = Date.now() - endedAt;
    else await sleep(budget > DEFAULT_RECOVERY_MS ? 1000 : 100);
  }
  const recoveryProblems =
    recoveredAfter === null
      ? [`no new player decided from the roster within ${seconds(budget)} of the fault's end`]
      : [];

  // Players online through the fault, and members admitted during it, are back in step.
  const admitted = probes.flatMap((p): Online[] =>
    p.decision.admitted && (p.name === 'K' || p.name === 'U')
      ? [{ id: p.decision.id, member: (p.name === 'K' ? known : unseen)!.id, name: p.name }]
      : [],
  );
  const watched = [...online, ...admitted];
  if (!(await holdsWithin(() => watched.every(inStep), ONLINE_BACK_MS))) {
    onlineProblems.push(
      `${seconds(ONLINE_BACK_MS)} after the fault: ${watched
        .filter((p) => !inStep(p))
        .map(describe)
        .join('; ')}`,
    );
  }
  rig.server.executeCommand('roster status');

  const maxWait = Math.max(...waits.map((w) => w.waitedMs));
  // Judged on the resource's time: the test process's own stalls (a busy machine) taken off.
  const late = waits.filter((w) => w.waitedMs - w.stalledMs > DEADLINE_MS);
  const perMinute = rig.mock.keyRecords.find((key) => key.name === 'full')!.perMinute;
  const most = maxInRolling60s(rig.requestTimes());
  if (most > perMinute) limitProblems.push(`${most} requests within 60 s, over the key's ${perMinute}`);
  // After the client has a 429, no request may leave it until the pause that 429 sets is over.
  const { problems: pauseProblems, summary: pauses } = pauseCheck(rig.wire, row.pausedUntil);
  limitProblems.push(...pauseProblems);
  const stillOut = watched.filter((p) => !inStep(p)).length;
  return {
    deadline: check(
      late.map((w) => `${w.name} waited ${w.waitedMs} ms (the machine stalled ${w.stalledMs} ms of it)`),
      `${seconds(maxWait)} max, ${waits.length} players`,
    ),
    policy: check(policyProblems, `${probes.length + (row.suspends ? 2 : 0)} players`),
    limits: check(limitProblems, `${most}/${perMinute} in 60 s${pauses}${quietCell}`),
    recovery: check(recoveryProblems, recoveredAfter === null ? 'none' : `after ${seconds(recoveredAfter)}`),
    online: check(onlineProblems, `${watched.length - stillOut}/${watched.length} in step`),
  };
}
