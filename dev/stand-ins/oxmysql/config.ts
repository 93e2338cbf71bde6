import type { PoolOptions, TypeCastField, TypeCastNext } from 'mysql2';
import { fx } from './fx';

/**
 * How oxmysql reads `mysql_connection_string` (src/config.ts): the convar, else the
 * DB_CONNECTION environment variable, else `mysql://root@localhost`. A string that contains
 * `mysql://` is read as a URI, anything else as `key=value;` pairs with a few aliases.
 */
export function connectionString(): string {
  return fx.GetConvar('mysql_connection_string', '') || process.env.DB_CONNECTION || 'mysql://root@localhost';
}

/** What the pool is made with, and whether `@name`/`:name` placeholders are rewritten. */
export interface DatabaseConfig {
  readonly options: PoolOptions;
  readonly namedPlaceholders: boolean;
}

export class ConnectionStringError extends Error {}

// The URI grammar oxmysql accepts, piece by piece. Each part is taken as written: no
// percent-decoding, so a password with `:` or `@` in it breaks the string.
const SCHEME = '(?:[^:/?#.]+:)?';
const USER_INFO = '(?:(?<auth>[^/?#]*)@)?';
const HOST = '(?<host>[\\w\\-\\u0100-\\uffff.%]*)';
const PORT = '(?::(?<port>\\d+))?';
const PATH = '(?<path>[^?#]+)?';
const QUERY = '(?:\\?(?<query>[^#]*))?';
const URI = new RegExp(`^${SCHEME}(?://${USER_INFO}${HOST}${PORT})?${PATH}${QUERY}$`);

function fromUri(text: string): Record<string, unknown> {
  const parts = URI.exec(text)?.groups;
  if (!parts) throw new ConnectionStringError(`mysql_connection_string structure was invalid (${text})`);
  const { auth, host, port, path, query } = parts;
  // `user:password`: only the first two pieces count.
  const [user, password] = auth ? auth.split(':') : [];
  const options: Record<string, unknown> = {
    user: user || undefined,
    password: password || undefined,
    host,
    // NaN without a port, which mysql2 reads as its default 3306.
    port: Number.parseInt(port ?? '', 10),
    database: path?.replace(/^\/+/, ''),
  };
  // `?a=b&c=d`: extra pool options, as strings; a value is cut at its second `=`.
  for (const pair of query ? query.split('&') : []) {
    const [key, value] = pair.split('=');
    options[key as string] = value;
  }
  return options;
}

/**
 * Other spellings of a key, rewritten wherever they are followed by `=` (case ignored). As in
 * oxmysql, `hostname` needs its `name`, and `user` swallows a following ` id`/`name`.
 */
const KEY_SPELLINGS: readonly (readonly [RegExp, string])[] = [
  [/(?:host(?:name)|ip|server|data\s?source|addr(?:ess)?)=/gi, 'host='],
  [/(?:user\s?(?:id|name)?|uid)=/gi, 'user='],
  [/(?:pwd|pass)=/gi, 'password='],
  [/(?:db)=/gi, 'database='],
];

/** `host=…;user=…;password=…;database=…`: keys as written otherwise, values cut at a second `=`. */
function fromPairs(text: string): Record<string, unknown> {
  const normalised = KEY_SPELLINGS.reduce((acc, [spelling, key]) => acc.replace(spelling, key), text);
  const options: Record<string, unknown> = {};
  for (const pair of normalised.split(';')) {
    const [key, value] = pair.split('=');
    if (key) options[key] = value;
  }
  return options;
}

/** oxmysql's type casts for `query` (text protocol); see responses.ts for binary columns. */
export function castText(field: TypeCastField, next: TypeCastNext): unknown {
  switch (field.type) {
    case 'DATETIME':
    case 'DATETIME2':
    case 'TIMESTAMP':
    case 'TIMESTAMP2':
    case 'NEWDATE':
    case 'DATE':
      return castDate(field);
    case 'TINY': {
      if (field.length !== 1) return next();
      const value = field.string();
      return value === '0' ? false : value === '1' ? true : next();
    }
    case 'BIT': {
      const bits = field.buffer();
      if (bits?.length !== 1) return next();
      return bits[0] === 0 ? false : bits[0] === 1 ? true : next();
    }
    default:
      return next();
  }
}

/** `prepare`/`rawExecute` (binary protocol) cast only dates (mysql2's default does the rest). */
export function castExecute(field: TypeCastField, next: TypeCastNext): unknown {
  switch (field.type) {
    case 'DATETIME':
    case 'DATETIME2':
    case 'TIMESTAMP':
    case 'TIMESTAMP2':
    case 'NEWDATE':
    case 'DATE':
      return castDate(field);
    default:
      return next();
  }
}

/** Dates become milliseconds, read in this machine's time zone; a DATE is its midnight. */
function castDate(field: TypeCastField): number | null {
  const value = field.string();
  if (!value) return null;
  return new Date(field.type === 'DATE' ? `${value} 00:00:00` : value).getTime();
}

/**
 * The pool's options from the connection string, over oxmysql's defaults: a 60 s connect
 * timeout, big numbers kept exact (as strings past 2^53), JSON columns as strings, its casts, and
 * its own named placeholders instead of mysql2's. Throws ConnectionStringError for a URI that
 * does not parse.
 */
export function readConfig(text = connectionString()): DatabaseConfig {
  const options = text.includes('mysql://') ? fromUri(text) : fromPairs(text);
  const namedPlaceholders = options.namedPlaceholders !== 'false';
  for (const key of ['dateStrings', 'flags', 'ssl']) {
    const value = options[key];
    if (typeof value !== 'string') continue;
    try {
      options[key] = JSON.parse(value);
    } catch (error) {
      console.log(`^3Failed to parse property ${key} in configuration (${error})!^0`);
    }
  }
  const flags = Array.isArray(options.flags) ? [...(options.flags as string[])] : [];
  flags.push(options.database ? 'CONNECT_WITH_DB' : '-CONNECT_WITH_DB');
  return {
    namedPlaceholders,
    options: {
      connectTimeout: 60_000,
      trace: false,
      supportBigNumbers: true,
      jsonStrings: true,
      ...options,
      typeCast: castText,
      namedPlaceholders: false,
      flags,
    } as PoolOptions,
  };
}
