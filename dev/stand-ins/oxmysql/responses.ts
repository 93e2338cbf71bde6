import type { FieldPacket, ResultSetHeader } from 'mysql2';

/** What a `query`-style export answers: the rows, one row, one value, an id or a count. */
export type AnswerKind = 'insert' | 'update' | 'single' | 'scalar' | null;

type Row = Record<string, unknown>;

/** oxmysql src/utils/parseResponse.ts: missing answers are null, never undefined. */
export function shapeAnswer(kind: AnswerKind, result: unknown): unknown {
  switch (kind) {
    case 'insert':
      return (result as ResultSetHeader | undefined)?.insertId ?? null;
    case 'update':
      return (result as ResultSetHeader | undefined)?.affectedRows ?? null;
    case 'single':
      return (result as Row[] | undefined)?.[0] ?? null;
    case 'scalar': {
      const row = (result as Row[] | undefined)?.[0];
      return (row && Object.values(row)[0]) ?? null;
    }
    default:
      return result ?? null;
  }
}

const BINARY_CHARSET = 63;
/** mysql2's column types for TINYBLOB, MEDIUMBLOB, LONGBLOB and BLOB (also TEXT, by charset). */
const BLOB_TYPES = new Set([249, 250, 251, 252]);

/**
 * Binary data as oxmysql hands it out: a binary BLOB column read by `query` is an array of
 * bytes (a NULL one `[null]`), its cast does it; other binary columns stay Buffers (which msgpack
 * packs as index-keyed maps). oxmysql's patched mysql2 turns those fields into arrays itself,
 * which stock mysql2 does not, so this is done here from the columns' metadata.
 */
export function textBinaries(result: unknown, fields: FieldPacket[] | undefined): unknown {
  if (!Array.isArray(result) || !fields) return result;
  const blobs = fields.filter(
    (f) => f.characterSet === BINARY_CHARSET && f.columnType !== undefined && BLOB_TYPES.has(f.columnType),
  );
  if (blobs.length === 0) return result;
  for (const row of result as Row[]) {
    for (const { name } of blobs) {
      const value = row[name];
      row[name] = value === null ? [null] : Buffer.isBuffer(value) ? [...value] : value;
    }
  }
  return result;
}

/** `prepare`/`rawExecute` read every binary field as an array of bytes (oxmysql's mysql2 patch). */
export function executeBinaries(result: unknown): unknown {
  if (!Array.isArray(result)) return result;
  for (const row of result as Row[]) {
    if (!row || typeof row !== 'object') continue;
    for (const [key, value] of Object.entries(row)) if (Buffer.isBuffer(value)) row[key] = [...value];
  }
  return result;
}
