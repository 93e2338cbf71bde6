import { isObject, type JsonObject } from './json-fields';
import type { LinkReplyFields } from './records';

/** One object shape a response may take: its properties with their (resolved) schemas. */
export type Shape = ReadonlyMap<string, JsonObject>;

const URI_FORMATS = new Set(['uri', 'url', 'iri', 'uri-reference', 'iri-reference']);
const TIME_FORMATS = new Set(['date-time', 'datetime', 'timestamp']);

const format = (schema: JsonObject) => (typeof schema.format === 'string' ? schema.format.toLowerCase() : '');
const describes = (schema: JsonObject) =>
  `${typeof schema.description === 'string' ? schema.description : ''} ${typeof schema.title === 'string' ? schema.title : ''}`.toLowerCase();
const types = (schema: JsonObject): string[] =>
  Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];
/** A string, or a property whose schema does not say (then only its name can tell). */
const mayBeString = (schema: JsonObject) => types(schema).length === 0 || types(schema).includes('string');

/**
 * Finds the pending-link reply's fields from its schema: the confirm address is the property with a
 * URI format (else one described as an address or link), the expiry the date-time one, and the code
 * the remaining short string the member is to type. Names are only a last hint, so a service whose
 * fields are called `pin` and `destination` is still read. `undefined` when no shape has an address
 * and a code.
 */
export function linkReplyFields(
  shapes: readonly Shape[],
  fallback: LinkReplyFields,
): LinkReplyFields | undefined {
  for (const shape of shapes) {
    const entries = [...shape].filter(([, schema]) => !('const' in schema) && mayBeString(schema));
    const confirmUrl =
      pick(entries, ([, s]) => URI_FORMATS.has(format(s))) ??
      pick(
        entries,
        ([, s]) => /\b(address|url|link|page)\b/.test(describes(s)) && !TIME_FORMATS.has(format(s)),
      ) ??
      pick(entries, ([name]) => /url|uri|href/i.test(name));
    if (confirmUrl === undefined) continue;
    const times = entries.filter(([name, s]) => name !== confirmUrl && TIME_FORMATS.has(format(s)));
    const expiresAt =
      pick(times, ([name, s]) =>
        /expir|valid|until|deadline/.test(`${name.toLowerCase()} ${describes(s)}`),
      ) ??
      times[0]?.[0] ??
      pick(entries, ([name]) => name !== confirmUrl && /expir|valid|until/i.test(name)) ??
      fallback.expiresAt;
    const rest = entries.filter(
      ([name, s]) => name !== confirmUrl && name !== expiresAt && !TIME_FORMATS.has(format(s)),
    );
    const code =
      only(rest) ??
      pick(rest, ([, s]) => /\bcode\b|\bconfirm|\benter|\btype/.test(describes(s))) ??
      pick(rest, ([, s]) => 'pattern' in s || (typeof s.maxLength === 'number' && s.maxLength <= 32)) ??
      pick(rest, ([name]) => /code|pin|token/i.test(name));
    if (code !== undefined) return { code, confirmUrl, expiresAt };
  }
  return undefined;
}

type Entry = [string, JsonObject];

function pick(entries: readonly Entry[], test: (entry: Entry) => boolean): string | undefined {
  return entries.find(test)?.[0];
}

function only(entries: readonly Entry[]): string | undefined {
  return entries.length === 1 ? entries[0]![0] : undefined;
}

/** Object shapes of a schema: `oneOf`/`anyOf` branch into shapes, `allOf` merges into each. */
export function shapesOf(
  raw: unknown,
  resolve: (raw: unknown) => JsonObject | undefined,
  depth = 0,
): Map<string, JsonObject>[] {
  const schema = resolve(raw);
  if (!schema || depth > 6) return [];
  const own = new Map<string, JsonObject>();
  if (isObject(schema.properties))
    for (const [name, value] of Object.entries(schema.properties)) {
      const resolved = resolve(value);
      if (resolved) own.set(name, resolved);
    }
  let shapes: Map<string, JsonObject>[] = [own];
  if (Array.isArray(schema.allOf))
    for (const part of schema.allOf) {
      const partShapes = shapesOf(part, resolve, depth + 1);
      if (partShapes.length === 0) continue;
      shapes = shapes.flatMap((shape) => partShapes.map((p) => new Map([...shape, ...p])));
    }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    const branches = list.flatMap((each) => shapesOf(each, resolve, depth + 1));
    if (branches.length > 0)
      shapes = shapes.flatMap((shape) => branches.map((b) => new Map([...shape, ...b])));
  }
  return shapes;
}
