import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowRig } from './rig';
import { ROSTER_SIDE } from './roster-side';
import type { MatrixRow } from './rows';
import { runRow, type Side } from './run';
import { COLUMNS, matrixMarkdown, type RowError, type RowOutcome, writeMatrix } from './table';
import { TRAINING_SIDE } from './training-side';

/**
 * Every fault of the roster service against the bundle in the emulator, in scaled-down time. Rows
 * run concurrently (each has its own mock service, emulator and resource folder): the rows that
 * wait out the once-a-minute key re-check or a calendar-minute 429 pause start first, the rest
 * share a few slots beside them. The learning service's rows (`gate.requireCourses` set, the roster
 * healthy) have slots of their own beside those. Each `it` asserts on the row it awaits; the table is
 * printed at the end. Unhandled rejections are process-wide, so one is charged to every row running
 * when it happened.
 */

const START_SPREAD_MS = 150;
/** Rows that wait out a minute (a key's re-check, a calendar-minute 429 pause) do not wait for a slot. */
const isLong = (row: MatrixRow<never>) => (row.recoveryBudgetMs ?? 0) >= 60_000;

/** A row of either side, as the schedule, the table and the `it`s see it. */
interface Entry {
  row: MatrixRow<never>;
  run(unhandledSince: (t: number) => string[]): Promise<RowOutcome>;
}
/** `FAULT_MATRIX_ONLY=<regex>` runs only the rows whose fault matches (while working on a few). */
const only = process.env.FAULT_MATRIX_ONLY ? new RegExp(process.env.FAULT_MATRIX_ONLY) : null;
function entries<Row extends MatrixRow<Rig>, Rig extends RowRig>(side: Side<Row, Rig>): Entry[] {
  return side.rows
    .filter((row) => !only || only.test(row.fault))
    .map((row) => ({ row, run: (unhandledSince) => runRow(side, row, unhandledSince) }));
}
/** The sides in the table's order; each later side's rows start after the earlier ones' first loads. */
const SIDES = [
  { slots: ROSTER_SIDE.slots, entries: entries(ROSTER_SIDE) },
  { slots: TRAINING_SIDE.slots, entries: entries(TRAINING_SIDE) },
];
const ALL: readonly Entry[] = SIDES.flatMap((side) => side.entries);

const unhandled: { at: number; text: string }[] = [];
const noteUnhandled = (kind: string) => (error: unknown) =>
  unhandled.push({ at: Date.now(), text: `${kind}: ${(error as Error)?.stack ?? String(error)}` });
const onRejection = noteUnhandled('unhandled rejection');
const onException = noteUnhandled('uncaught exception');
const unhandledSince = (t: number) => unhandled.filter((u) => u.at >= t).map((u) => u.text);

const results = new Map<MatrixRow<never>, Promise<RowOutcome>>();
const finished: (RowOutcome | RowError)[] = [];

function run(entry: Entry): Promise<RowOutcome> {
  const outcome = entry.run(unhandledSince);
  outcome.then(
    (o) => finished.push(o),
    (error: unknown) =>
      finished.push({ fault: entry.row.fault, onError: entry.row.onError, error: String(error) }),
  );
  return outcome;
}

/** Runs `queue` through `slots` slots: a row starts when a slot frees; its promise exists from the start. */
function inSlots(queue: readonly Entry[], slots: number, firstStartMs: number): void {
  const opens: (() => void)[] = [];
  const gates = queue.map(() => new Promise<void>((open) => opens.push(open)));
  let next = 0;
  const startNext = () => opens[next++]?.();
  queue.forEach((entry, index) => {
    const outcome = gates[index]!.then(() => run(entry));
    outcome.catch(() => undefined).finally(startNext); // the row's `it` reports it
    results.set(entry.row, outcome);
  });
  for (let slot = 0; slot < slots; slot++) setTimeout(startNext, firstStartMs + slot * START_SPREAD_MS);
}

function schedule(): void {
  // Starts are spread out: loading the bundle into a fresh context is the costly part of a row.
  const long = ALL.filter((entry) => isLong(entry.row));
  inSlots(long, long.length, 0);
  let firstStartMs = 0;
  for (const side of SIDES) {
    inSlots(
      side.entries.filter((entry) => !isLong(entry.row)),
      side.slots,
      firstStartMs,
    );
    firstStartMs += Math.max(long.length, side.slots) * START_SPREAD_MS;
  }
}

beforeAll(() => {
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  schedule();
});

afterAll(async () => {
  await Promise.allSettled(results.values());
  process.off('unhandledRejection', onRejection);
  process.off('uncaughtException', onException);
  const order = (f: { fault: string; onError: string }) =>
    ALL.findIndex(({ row }) => row.fault === f.fault && row.onError === f.onError);
  const markdown = matrixMarkdown(
    [...finished].sort((x, y) => order(x) - order(y)),
    [ROSTER_SIDE.legend, TRAINING_SIDE.legend],
  );
  const path = writeMatrix(markdown);
  console.log(`${markdown}\n\nFault matrix written to ${path}`);
});

const named = ALL.map(({ row }) => [`${row.fault} (onError ${row.onError})`, row] as const);
const knownBugs = named.flatMap(([name, row]) =>
  COLUMNS.flatMap(({ key, asserts }) => {
    const reason = row.knownBugs?.[key];
    return reason === undefined ? [] : [[name, key, reason, asserts, row] as const];
  }),
);

describe('fault matrix', () => {
  it.each(named)(
    '%s',
    async (_name, row) => {
      const outcome = await results.get(row)!;
      for (const { key, asserts } of COLUMNS) {
        if (row.knownBugs?.[key] === undefined) expect.soft(outcome[key].problems, asserts).toEqual([]);
      }
    },
    100_000,
  );

  // Each known bug keeps its failing assertion; `it.fails` turns red once the bug is fixed.
  it.fails.each(knownBugs)(
    '%s: %s (known bug: %s)',
    async (_name, column, _reason, asserts, row) => {
      const outcome = await results.get(row)!;
      expect(outcome[column].problems, asserts).toEqual([]);
    },
    100_000,
  );
});
