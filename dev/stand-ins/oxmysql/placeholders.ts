/**
 * oxmysql's own named placeholders (its patch of the `named-placeholders` package): `@name` or
 * `:name` (a letter then letters, digits, `_`; or digits) outside quotes, not right after a quote
 * character, becomes `?` and takes `params.name`; a missing one is NULL. A `?` takes `params[0]`,
 * `params[1]`… A placeholder right after another `:` or `@` (`::name`, `@@name`) becomes the
 * identifier placeholder `??`, so `@@session.x` in a query with named parameters is broken.
 * Keys may be written with their sigil (`{ '@id': 1 }` is `{ id: 1 }`).
 */
const NAMED = /[:@](\d+|[A-Za-z][A-Za-z0-9_]*)/y;
const BACKSLASH = '\\';

export class PlaceholderError extends Error {}

export function namedToPositional(query: string, params: Record<string, unknown>): [string, unknown[]] {
  // A key written with its sigil wins over the same key without one.
  const values: Record<string, unknown> = {};
  const entries = Object.entries(params);
  for (const [key, value] of entries) if (!isSigil(key[0])) values[key] = value;
  for (const [key, value] of entries) if (isSigil(key[0])) values[key.slice(1)] = value;
  let sql = '';
  const names: (string | number)[] = [];
  let positional = 0;
  let quote: string | null = null;
  let escaped = false;
  for (let i = 0; i < query.length; ) {
    // A placeholder outside quotes counts even after a backslash, and leaves the escape pending.
    const token = quote ? null : placeholderAt(query, i);
    if (token) {
      const identifier = isSigil(sql.at(-1));
      if (identifier) sql = sql.slice(0, -1);
      sql += identifier ? '??' : '?';
      names.push(token.name ?? positional++);
      i += token.length;
      continue;
    }
    const char = query[i] as string;
    if (char === BACKSLASH) {
      escaped = !escaped;
    } else if (escaped) {
      escaped = false;
    } else if (quote) {
      // A doubled quote stays inside the string.
      if (char === quote && query[i + 1] === quote) {
        sql += char + char;
        i += 2;
        continue;
      }
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    }
    sql += char;
    i++;
  }
  if (names.length === 0) return [query, []];
  return [sql, names.map((name) => values[name] ?? null)];
}

const isSigil = (char: string | undefined): boolean => char === '@' || char === ':';

function placeholderAt(query: string, at: number): { name: string | null; length: number } | null {
  if (query[at] === '?') return { name: null, length: 1 };
  const before = query[at - 1];
  if (before === '"' || before === "'") return null;
  NAMED.lastIndex = at;
  const match = NAMED.exec(query);
  return match ? { name: match[1] as string, length: match[0].length } : null;
}

/**
 * Query and parameters as oxmysql's `query`-style exports take them (src/utils/parseArguments.ts):
 * named placeholders rewritten when the parameters are an object and the query has `:` or `@`;
 * any other object read by 1-based keys (`{ 1: a, 2: b }`, a Lua table with holes); an array
 * padded with NULL up to the number of `?`, and refused when it has more.
 */
export function normaliseArguments(query: unknown, params: unknown, named: boolean): [string, unknown[]] {
  if (typeof query !== 'string') {
    throw new PlaceholderError(`Expected query to be a string but received ${typeof query} instead.`);
  }
  let sql = query;
  let values: unknown = params;
  if (named && isObject(values) && (sql.includes(':') || sql.includes('@'))) {
    [sql, values] = namedToPositional(sql, values);
  }
  if (!values || typeof values === 'function') values = [];
  // `??` is counted once: it is mysql2's identifier placeholder.
  const placeholders = sql.match(/\?(?!\?)/g)?.length ?? 0;
  if (!Array.isArray(values)) {
    const byPosition = values as Record<string, unknown>;
    return [sql, Array.from({ length: placeholders }, (_, i) => byPosition[i + 1] ?? null)];
  }
  if (values.length > placeholders && placeholders > 0) {
    throw new PlaceholderError(`Expected ${placeholders} parameters, but received ${values.length}.`);
  }
  const padding = Math.max(0, placeholders - values.length);
  return [sql, [...values, ...new Array(padding).fill(null)]];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
