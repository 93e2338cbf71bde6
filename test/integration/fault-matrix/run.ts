import type { Decision } from '../../../dev/emulator';
import {
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
import type { RowRig, Timed } from './rig';
import type { MatrixRow } from './rows';
import { deadlineMs, FAULT_MS, holdsWithin, recoveryMs, sleep, TIMEOUT_SECONDS } from './scale';
import type { RowOutcome } from './table';

/**
 * One side of the matrix: a service's faults against the resource, and how a row of them is
 * measured. The runner does what every row does (start, warm up, fault on, fault off, the deadline,
 * online-player, crash and key cells); the side says who joins, what they should be told, and how
 * its service counts requests.
 */
export interface Side<Row extends MatrixRow<Rig>, Rig extends RowRig> {
  rows: readonly Row[];
  /** The legend's sentences about this side's rows. */
  legend: string;
  /** How many of its rows run side by side. */
  slots: number;
  /** Whom the resource must have connected to before a fault (`the roster`, `both services`). */
  services: string;
  /** What the key column calls a leaked key. */
  leakNoun: string;
  /** How long online players may take to be back in step once the fault ends. */
  onlineBackMs: number;
  /** The console command a row ends with: its output is searched for the key too. */
  finalCommand: string;
  start(row: Row): Promise<Rig>;
  /** Whether the resource is ready for the fault: connected, its first answers in. */
  ready(rig: Rig): boolean;
  /** Players online before the fault, decided by the service. */
  warmUp(rig: Rig): Promise<Online[]>;
  /** Whether other resources see a player's data as the service has it. */
  inStep(rig: Rig, player: Online): boolean;
  /** A player's data as other resources see it, for a problem. */
  describe(rig: Rig, player: Online): string;
  /** Players joining through the fault, each judged; the policy cell's text. */
  duringFault(rig: Rig, row: Row, run: RowRun, faultAt: number): Promise<string>;
  /** Once the fault is over: players decided by the service again; the recovery cell. */
  recover(rig: Rig, row: Row, run: RowRun, endedAt: number): Promise<Check>;
  /** The limits cell, from the requests the service had and the client wrote. */
  limits(rig: Rig, row: Row, run: RowRun, faultAt: number): Check;
}

/** What a row measures as it goes, for the runner and the side's steps alike. */
export class RowRun {
  /** Every join whose wait the deadline column judges. */
  readonly waits: Timed[] = [];
  readonly policyProblems: string[] = [];
  readonly onlineProblems: string[] = [];
  /** Problems of the limits column found while the fault is on, and what its cell ends with. */
  readonly limitProblems: string[] = [];
  readonly limitNotes: string[] = [];
  /** Players whose data must hold through the fault: those online before it, and any the side adds. */
  readonly watched: Online[] = [];
  readonly deadlineMs: number;
  /** How long after the fault a player may still not be decided by the service, unless the row says. */
  readonly recoveryMs: number;

  constructor(
    readonly timeoutSeconds: number,
    private readonly inStep: (player: Online) => boolean,
    private readonly describe: (player: Online) => string,
  ) {
    this.deadlineMs = deadlineMs(timeoutSeconds);
    this.recoveryMs = recoveryMs(timeoutSeconds);
  }

  /** A join the deadline column judges. */
  async timed(join: Promise<Timed>): Promise<Timed> {
    const result = await join;
    this.waits.push(result);
    return result;
  }

  /** A decision the policy column judges: one of `allowed`, else a problem (`note` says why it matters). */
  judge(result: Timed, allowed: readonly Expected[], note = ''): void {
    if (allowed.some((expected) => matches(result.decision, expected))) return;
    this.policyProblems.push(
      `${result.name}: ${show(result.decision)}, expected ${allowed.map(says).join(' or ')}${note}`,
    );
  }

  /** Whether `players` are in step within `withinMs`; if not, an online problem says who, and `when`. */
  async inStepWithin(
    when: string,
    withinMs: number,
    players: readonly Online[] = this.watched,
  ): Promise<void> {
    if (!(await holdsWithin(() => players.every(this.inStep), withinMs)))
      this.onlineProblems.push(`${when}: ${this.outOfStep(players)}`);
  }

  outOfStep(players: readonly Online[] = this.watched): string {
    return players
      .filter((p) => !this.inStep(p))
      .map(this.describe)
      .join('; ');
  }

  deadlineCell(): Check {
    const maxWait = Math.max(...this.waits.map((w) => w.waitedMs));
    // Judged on the resource's time: the test process's own stalls (a busy machine) taken off.
    const late = this.waits.filter((w) => w.waitedMs - w.stalledMs > this.deadlineMs);
    const bound = this.timeoutSeconds === TIMEOUT_SECONDS ? '' : ` (≤ ${seconds(this.deadlineMs)})`;
    return check(
      late.map((w) => `${w.name} waited ${w.waitedMs} ms (the machine stalled ${w.stalledMs} ms of it)`),
      `${seconds(maxWait)} max${bound}, ${this.waits.length} players`,
    );
  }

  onlineCell(): Check {
    const stillOut = this.watched.filter((p) => !this.inStep(p)).length;
    return check(this.onlineProblems, `${this.watched.length - stillOut}/${this.watched.length} in step`);
  }

  /**
   * Joins `${prefix}0`, `${prefix}1`, … (pausing `pauseMs` between) until one is `decided` or the
   * budget since `endedAt` runs out; how long after `endedAt` that was, or null. `missed` hears
   * every join that was not.
   */
  async firstDecided(options: {
    prefix: string;
    endedAt: number;
    budgetMs: number;
    pauseMs: number;
    join(name: string): Promise<Timed>;
    decided(result: Timed): boolean;
    missed?(result: Timed): void;
  }): Promise<number | null> {
    for (let attempt = 0; Date.now() - options.endedAt <= options.budgetMs; attempt++) {
      const result = await this.timed(options.join(`${options.prefix}${attempt}`));
      if (options.decided(result)) return Date.now() - options.endedAt;
      options.missed?.(result);
      await sleep(options.pauseMs);
    }
    return null;
  }
}

/**
 * Joins `name` (then `name-1`, `name-2`, …) until the gate decides it on the service's answer and
 * `wanted` holds. Setup, not measurement: a join the deadline caught (a loaded machine) is simply
 * tried again, and an admitted player who does not count leaves.
 */
export async function warmUpJoin(
  rig: RowRig,
  name: string,
  join: (name: string) => Promise<Timed>,
  wanted: (decision: Decision) => boolean,
): Promise<Decision> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const each = `${name}${attempt === 0 ? '' : `-${attempt}`}`;
    const { decision } = await join(each);
    if (wanted(decision) && rig.basisOf(each) === 'roster') return decision;
    if (decision.admitted) rig.server.dropPlayer(decision.id);
  }
  throw new Error(`warm-up: ${name} was never decided by the service`);
}

/** The id of an admitted player. */
export function admittedId(decision: Decision): number {
  if (!decision.admitted) throw new Error('warm-up: a player was refused');
  return decision.id;
}

/**
 * Runs one row of a side: the resource ready and players online, the fault on with players joining
 * through it, the fault off and players decided by the service again, online players back in step;
 * measures every column on the way. `unhandledSince(t)` gives the unhandled rejections and
 * exceptions the process saw since `t`.
 */
export async function runRow<Row extends MatrixRow<Rig>, Rig extends RowRig>(
  side: Side<Row, Rig>,
  row: Row,
  unhandledSince: (t: number) => string[],
): Promise<RowOutcome> {
  const startedAt = Date.now();
  const rig = await side.start(row);
  try {
    const cells = await measure(side, rig, row);
    rig.server.stopResource('roster'); // writes the snapshot (and the alias file): more files to search
    return {
      fault: row.fault,
      onError: row.onError,
      ...cells,
      ...crashAndKeyCells(rig.server, unhandledSince(startedAt), rig.keyLeaks(), side.leakNoun),
    };
  } finally {
    await rig.close();
  }
}

async function measure<Row extends MatrixRow<Rig>, Rig extends RowRig>(
  side: Side<Row, Rig>,
  rig: Rig,
  row: Row,
): Promise<Omit<RowOutcome, 'fault' | 'onError' | 'crash' | 'key'>> {
  const run = new RowRun(
    row.gateTimeoutSeconds ?? TIMEOUT_SECONDS,
    (player) => side.inStep(rig, player),
    (player) => side.describe(rig, player),
  );
  if (!(await holdsWithin(() => side.ready(rig), 10_000)))
    throw new Error(`the resource did not connect to ${side.services} before the fault`);
  run.watched.push(...(await side.warmUp(rig)));
  if (!(await holdsWithin(() => run.watched.every((p) => side.inStep(rig, p)), 5000)))
    throw new Error(`warm-up: online players not loaded before the fault: ${run.outOfStep()}`);

  // The fault, with the background refresh of the online players running into it.
  const faultAt = Date.now();
  await row.begin(rig);
  const policyCell = await side.duringFault(rig, row, run, faultAt);
  await sleep(faultAt + FAULT_MS - Date.now());

  // The fault ends: players must be decided by the service again, by itself.
  const endedAt = Date.now();
  await row.end(rig);
  const recovery = await side.recover(rig, row, run, endedAt);
  await run.inStepWithin(`${seconds(side.onlineBackMs)} after the fault`, side.onlineBackMs);
  rig.server.executeCommand(side.finalCommand);
  return {
    deadline: run.deadlineCell(),
    policy: check(run.policyProblems, policyCell),
    limits: side.limits(rig, row, run, faultAt),
    recovery,
    online: run.onlineCell(),
  };
}
