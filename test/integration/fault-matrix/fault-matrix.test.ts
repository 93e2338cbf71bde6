import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from './rig';
import { FAULT_ROWS, type FaultRow } from './rows';
import { COLUMNS, type Column, type RowOutcome, runRow } from './run';
import { matrixMarkdown, writeMatrix } from './table';
import { TRAINING_FAULT_ROWS, type TrainingFaultRow } from './training-rows';
import { runTrainingRow } from './training-run';

/**
 * Every fault of the roster service against the bundle in the emulator, in scaled-down time. Rows
 * run concurrently (each has its own mock service, emulator and resource folder): the rows that
 * wait out the once-a-minute key re-check or a calendar-minute 429 pause start first, the rest
 * share a few slots beside them. The learning service's rows (`gate.requireCourses` set, the roster
 * healthy) have slots of their own beside those. Each `it` asserts on the row it awaits; the table is
 * printed at the end. Unhandled rejections are process-wide, so one is charged to every row running
 * when it happened.
 */

const SHORT_ROW_SLOTS = 6;
const TRAINING_ROW_SLOTS = 4;
const START_SPREAD_MS = 150;
const isLong = (row: FaultRow) => (row.recoveryBudgetMs ?? 0) > 10_000;

/** A row of either service, as the schedule, the table and the `it`s see it. */
type MatrixRow = FaultRow | TrainingFaultRow;
const isTrainingRow = (row: MatrixRow): row is TrainingFaultRow =>
  TRAINING_FAULT_ROWS.includes(row as TrainingFaultRow);
/** `FAULT_MATRIX_ONLY=<regex>` runs only the rows whose fault matches (while working on a few). */
const only = process.env.FAULT_MATRIX_ONLY ? new RegExp(process.env.FAULT_MATRIX_ONLY) : null;
const pick = <R extends MatrixRow>(rows: readonly R[]) => rows.filter((r) => !only || only.test(r.fault));
const ROSTER_ROWS = pick(FAULT_ROWS);
const TRAINING_ROWS = pick(TRAINING_FAULT_ROWS);
const ALL_ROWS: readonly MatrixRow[] = [...ROSTER_ROWS, ...TRAINING_ROWS];

const unhandled: { at: number; text: string }[] = [];
const noteUnhandled = (kind: string) => (error: unknown) =>
  unhandled.push({ at: Date.now(), text: `${kind}: ${(error as Error)?.stack ?? String(error)}` });
const onRejection = noteUnhandled('unhandled rejection');
const onException = noteUnhandled('uncaught exception');
const unhandledSince = (t: number) => unhandled.filter((u) => u.at >= t).map((u) => u.text);

const results = new Map<MatrixRow, Promise<RowOutcome>>();
const finished: (RowOutcome | { fault: string; onError: string; error: string })[] = [];

function run(row: MatrixRow): Promise<RowOutcome> {
  const outcome = isTrainingRow(row) ? runTrainingRow(row, unhandledSince) : runRow(row, unhandledSince);
  outcome.then(
    (o) => finished.push(o),
    (error: unknown) => finished.push({ fault: row.fault, onError: row.onError, error: String(error) }),
  );
  return outcome;
}

/** Runs `queue` through `slots` slots: a row starts when a slot frees; its promise exists from the start. */
function inSlots(queue: readonly MatrixRow[], slots: number, firstStartMs: number): void {
  const opens: (() => void)[] = [];
  const gates = queue.map(() => new Promise<void>((open) => opens.push(open)));
  let next = 0;
  const startNext = () => opens[next++]?.();
  queue.forEach((row, index) => {
    const outcome = gates[index]!.then(() => run(row));
    outcome.catch(() => undefined).finally(startNext);
    results.set(row, outcome);
  });
  for (let slot = 0; slot < slots; slot++) setTimeout(startNext, firstStartMs + slot * START_SPREAD_MS);
}

function schedule(rows: readonly FaultRow[], trainingRows: readonly TrainingFaultRow[]): void {
  // Starts are spread out: loading the bundle into a fresh context is the costly part of a row.
  const longRows = rows.filter(isLong);
  longRows.forEach((row, index) => {
    const outcome = sleep(index * START_SPREAD_MS).then(() => run(row));
    outcome.catch(() => undefined); // the row's `it` reports it
    results.set(row, outcome);
  });
  inSlots(
    rows.filter((row) => !isLong(row)),
    SHORT_ROW_SLOTS,
    0,
  );
  // The learning rows are all short; they start after the others' first loads.
  inSlots(trainingRows, TRAINING_ROW_SLOTS, Math.max(longRows.length, SHORT_ROW_SLOTS) * START_SPREAD_MS);
}

beforeAll(() => {
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  schedule(ROSTER_ROWS, TRAINING_ROWS);
});

afterAll(async () => {
  await Promise.allSettled(results.values());
  process.off('unhandledRejection', onRejection);
  process.off('uncaughtException', onException);
  const order = (f: { fault: string; onError: string }) =>
    ALL_ROWS.findIndex((r) => r.fault === f.fault && r.onError === f.onError);
  const markdown = matrixMarkdown([...finished].sort((x, y) => order(x) - order(y)));
  const path = writeMatrix(markdown);
  console.log(`${markdown}\n\nFault matrix written to ${path}`);
});

const ASSERTIONS: Record<Column, string> = {
  deadline: 'every deferral ends within gate.timeoutSeconds + 1 s',
  policy: 'decisions follow gate.onError',
  limits: "the service never gets more than the key's limit",
  crash: 'nothing is thrown unhandled',
  recovery: 'a new player is decided from the roster (learning rows: the learning service) again',
  online: 'online players keep their data (learning rows: their training) and are back in step',
  key: 'the key appears nowhere',
};

const named = ALL_ROWS.map((row) => [`${row.fault} (onError ${row.onError})`, row] as const);
const knownBugs = named.flatMap(([name, row]) =>
  Object.entries(row.knownBugs ?? {}).map(
    ([column, reason]) => [name, column as Column, reason, row] as const,
  ),
);

describe('fault matrix', () => {
  it.each(named)(
    '%s',
    async (_name, row) => {
      const outcome = await results.get(row)!;
      for (const column of COLUMNS) {
        if (row.knownBugs?.[column] === undefined)
          expect.soft(outcome[column].problems, ASSERTIONS[column]).toEqual([]);
      }
    },
    100_000,
  );

  // Each known bug keeps its failing assertion; `it.fails` turns red once the bug is fixed.
  it.fails.each(knownBugs)(
    '%s: %s (known bug: %s)',
    async (_name, column, _reason, row) => {
      const outcome = await results.get(row)!;
      expect(outcome[column].problems, ASSERTIONS[column]).toEqual([]);
    },
    100_000,
  );
});
