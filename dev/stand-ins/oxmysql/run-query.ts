import type { FieldPacket } from 'mysql2';
import { answer, type Caller, reportQueryError } from './errors';
import { normaliseArguments } from './placeholders';
import { namedPlaceholders, waitForPool } from './pool';
import { noteDuration, noteSize } from './query-log';
import { type AnswerKind, shapeAnswer, textBinaries } from './responses';

/**
 * `query`, `single`, `scalar`, `insert`, `update` (oxmysql src/database/rawQuery.ts): one
 * statement over the text protocol (mysql2 `query`: values are escaped into the SQL, not a
 * server-side prepared statement), its answer shaped by `kind`, handed to the callback.
 * Rejects only when the pool cannot give a connection, which nobody hears of (printLost).
 */
export async function runQuery(
  kind: AnswerKind,
  caller: Caller,
  query: unknown,
  params: unknown,
): Promise<void> {
  let sql: string;
  let values: unknown[];
  try {
    [sql, values] = normaliseArguments(query, params, namedPlaceholders());
  } catch (error) {
    return reportQueryError(caller, error, query, params);
  }
  const pool = await waitForPool();
  const connection = await pool.getConnection();
  try {
    const started = performance.now();
    const [result, fields] = (await connection.query(sql, values)) as [unknown, FieldPacket[] | undefined];
    noteDuration(caller.resource, sql, performance.now() - started, values);
    noteSize(caller.resource, sql, result);
    answer(caller, shapeAnswer(kind, textBinaries(result, fields)));
  } catch (error) {
    reportQueryError(caller, error, sql, values, true);
  } finally {
    connection.release();
  }
}
