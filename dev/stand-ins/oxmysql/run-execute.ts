import type { QueryValues } from 'mysql2';
import { castExecute } from './config';
import { answer, type Caller, reportQueryError } from './errors';
import { countPlaceholders, type ExecuteKind, executeKind, parameterSets } from './execute-arguments';
import { waitForPool } from './pool';
import { noteDuration, noteSize } from './query-log';
import { executeBinaries, shapeAnswer } from './responses';

/**
 * `rawExecute` and `prepare` (oxmysql src/database/rawExecute.ts): a server-side prepared
 * statement (mysql2 `execute`), run once per parameter set. No named placeholders here.
 *
 * What the callback gets: the results gathered over the runs, where a SELECT of two rows or
 * more adds each row on its own and any other result is added whole. One entry left is handed
 * out alone, so `rawExecute` answers a SELECT's rows however many there are.
 * `prepare` (unpack) shapes each result by the query's first word first, and for a SELECT
 * answers the only row's only value, or the only row, or (two rows or more) the rows.
 */
export async function runExecute(
  caller: Caller,
  query: unknown,
  params: unknown,
  unpack: boolean,
): Promise<void> {
  let kind: ExecuteKind;
  let placeholders: number;
  let sets: unknown[][];
  try {
    kind = executeKind(query);
    placeholders = countPlaceholders(query as string);
    sets = parameterSets(placeholders, params);
  } catch (error) {
    return reportQueryError(caller, error, query, params);
  }
  const sql = query as string;
  const pool = await waitForPool();
  const connection = await pool.getConnection();
  try {
    const gathered: unknown[] = [];
    for (let run = 0; run < Math.max(1, sets.length); run++) {
      const values = sets[run];
      if (values) for (let i = values.length; i < placeholders; i++) values[i] = null;
      const started = performance.now();
      // A hole left in a set is sent as NULL (oxmysql's mysql2 patch accepts undefined).
      const bound = values && Array.from(values, (v) => (v === undefined ? null : v));
      const [result] = await connection.execute({
        sql,
        ...(bound ? { values: bound as QueryValues } : {}),
        typeCast: castExecute,
      });
      const read = executeBinaries(result);
      if (Array.isArray(read) && read.length > 1) {
        for (const item of read) gathered.push(unpack ? shapeAnswer(kind, item) : item);
      } else gathered.push(unpack ? shapeAnswer(kind, read) : read);
      noteDuration(caller.resource, sql, performance.now() - started, values);
      noteSize(caller.resource, sql, result);
    }
    answer(caller, single(gathered, kind, unpack));
  } catch (error) {
    reportQueryError(caller, error, sql, sets);
  } finally {
    connection.release();
  }
}

function single(gathered: unknown[], kind: ExecuteKind, unpack: boolean): unknown {
  if (gathered.length !== 1) return gathered;
  const [only] = gathered;
  if (!unpack || kind !== null) return only;
  const row = (only as Record<string, unknown>[] | undefined)?.[0];
  if (row && Object.keys(row).length === 1) return Object.values(row)[0];
  return row;
}
