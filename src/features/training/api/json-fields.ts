/** Tolerant readers for JSON of shapes the document leaves partly open: wrong types read as absent. */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first of `names` that holds a non-empty string (numbers are accepted as their text). */
export function text(record: JsonObject, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

export function numberOf(record: JsonObject, ...names: string[]): number | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
      return Number(value);
  }
  return undefined;
}

export function flag(record: JsonObject, name: string): boolean | undefined {
  const value = record[name];
  return typeof value === 'boolean' ? value : undefined;
}

/** The array at `name`, or the body itself when it is a bare array. */
export function listIn(body: unknown, ...names: string[]): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (!isObject(body)) return undefined;
  for (const name of names) {
    const value = body[name];
    if (Array.isArray(value)) return value;
  }
  if (isObject(body.data)) return listIn(body.data, ...names);
  if (Array.isArray(body.data)) return body.data;
  return undefined;
}
