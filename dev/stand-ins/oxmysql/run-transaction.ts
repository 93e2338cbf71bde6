import { answer, type Caller, reportQueryError } from './errors';
import { fx } from './fx';
import { normaliseArguments } from './placeholders';
import { namedPlaceholders, waitForPool } from './pool';
import { noteDuration } from './query-log';

interface Statement {
  readonly query: string;
  readonly params: unknown[];
}

/**
 * The statements of a `transaction` call (oxmysql src/utils/parseTransaction.ts), in one of
 * three shapes: `[[query, params], …]` (each with its own parameters, which must be an array or
 * object); `[{ query, parameters | values }, …]`; or `[query, …]`, where every query shares the
 * call's own parameters.
 */
function statementsOf(queries: unknown, shared: unknown): Statement[] {
  if (!Array.isArray(queries)) {
    throw new Error(`Transaction queries must be array, received '${typeof queries}'.`);
  }
  const named = namedPlaceholders();
  const common = !shared || typeof shared === 'function' ? [] : shared;
  if (Array.isArray(queries[0])) {
    return queries.map((entry: unknown[]) => {
      if (typeof entry[1] !== 'object') {
        throw new Error(`Transaction parameters must be array or object, received '${typeof entry[1]}'.`);
      }
      const [query, params] = normaliseArguments(entry[0], entry[1], named);
      return { query, params };
    });
  }
  return queries.map((entry: unknown) => {
    const own = (entry ?? {}) as { query?: unknown; parameters?: unknown; values?: unknown };
    const described = typeof entry === 'object' && own.query !== undefined;
    const [query, params] = described
      ? normaliseArguments(own.query, own.parameters || own.values, named)
      : normaliseArguments(entry, common, named);
    return { query, params };
  });
}

/**
 * `transaction` (oxmysql src/database/rawTransaction.ts): BEGIN, each statement over the text
 * protocol, COMMIT. The callback gets true, or **false when a statement failed** (rolled back; a
 * console line with the SQL, `oxmysql:transaction-error` to every resource): a failing statement
 * never reaches the promise forms as a rejection. Only statements that cannot be read do.
 */
export async function runTransaction(caller: Caller, queries: unknown, params: unknown): Promise<void> {
  let statements: Statement[];
  try {
    statements = statementsOf(queries, params);
  } catch (error) {
    return reportQueryError(caller, error);
  }
  const pool = await waitForPool();
  const connection = await pool.getConnection();
  let committed = false;
  try {
    await connection.beginTransaction();
    for (const statement of statements) {
      const started = performance.now();
      await connection.query(statement.query, statement.params);
      noteDuration(caller.resource, statement.query, performance.now() - started, statement.params);
    }
    await connection.commit();
    committed = true;
  } catch (error) {
    await connection.rollback().catch(() => {});
    const listed = statements.map((s) => `${s.query} ${JSON.stringify(s.params || [])}`).join('\n');
    const failed = (error as { sql?: string }).sql || `${listed}\n${JSON.stringify(params)}`;
    const message = (error as Error).message;
    console.error(`${caller.resource} was unable to complete a transaction!\n${failed}\n${message}`);
    fx.emit('oxmysql:transaction-error', {
      query: failed,
      parameters: params,
      message,
      err: error,
      resource: caller.resource,
    });
  } finally {
    connection.release();
  }
  answer(caller, committed);
}
