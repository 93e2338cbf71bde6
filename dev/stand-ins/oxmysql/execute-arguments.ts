/**
 * How `prepare` and `rawExecute` read their arguments (oxmysql src/utils/parseExecute.ts).
 *
 * The kind of answer comes from the query's first word, exactly as written: `INSERT` answers the
 * insert id, `UPDATE` and `DELETE` the affected rows, anything else (`insert` in lower case too)
 * the rows. Parameters are one set or several: an array of arrays (or of objects with 1-based
 * keys) runs the statement once per set; a flat array or one object with 1-based keys is one set.
 */
export type ExecuteKind = 'insert' | 'update' | null;

export function executeKind(query: unknown): ExecuteKind {
  if (typeof query !== 'string') {
    throw new Error(`Expected query to be a string but received ${typeof query} instead.`);
  }
  const firstWord = query.slice(0, query.indexOf(' '));
  if (firstWord === 'INSERT') return 'insert';
  return firstWord === 'UPDATE' || firstWord === 'DELETE' ? 'update' : null;
}

/** `{ 1: a, 3: c }` → `[a, <hole>, c]`: holes become NULL later. */
function byPosition(value: object): unknown[] {
  const set: unknown[] = [];
  for (const [key, item] of Object.entries(value)) set[Number.parseInt(key, 10) - 1] = item;
  return set;
}

/** The parameter sets, one per run; no set at all (`[]`) runs once without parameters. */
export function parameterSets(placeholders: number, params: unknown): unknown[][] {
  if (!params || typeof params !== 'object') return [];
  const list = Array.isArray(params) ? params : byPosition(params);
  if (list.every(Array.isArray)) return list as unknown[][];
  // Every item an object (null counts, and makes Object.entries throw, as in oxmysql).
  if (list.every((item) => typeof item === 'object')) {
    return list.map((item) => {
      const set = Array.isArray(item) ? [...item] : byPosition(item as object);
      for (let i = 0; i < placeholders; i++) if (set[i] === undefined) set[i] = null;
      return set;
    });
  }
  return [[...list]];
}

/** Every `?` counts here, `??` twice. */
export const countPlaceholders = (query: string): number => query.split('?').length - 1;
