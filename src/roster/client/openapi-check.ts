/**
 * Reads the service's OpenAPI description and says which of the resource's assumptions about the
 * API (the fields and filters it relies on beyond the API document) it confirms. Tolerant: a missing piece is "not described", not a crash.
 */

import { ROSTER_ROUTES } from './routes';

export type Verdict = 'confirmed' | 'contradicted' | 'not described';

export interface AssumptionCheck {
  assumption: string;
  verdict: Verdict;
  detail?: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function checkAssumptions(document: unknown): AssumptionCheck[] {
  if (!isObject(document) || !isObject(document.paths)) {
    return [
      {
        assumption: 'the OpenAPI description can be read',
        verdict: 'contradicted',
        detail: 'no `paths` in it',
      },
    ];
  }
  const doc = document;
  return [
    fieldsCheck(doc, ROSTER_ROUTES.members, 'members carry id, status, gameLicense and displayName or name', [
      ['id'],
      ['status'],
      ['gameLicense'],
      ['displayName', 'name'],
    ]),
    parameterCheck(doc, ROSTER_ROUTES.members, 'gameLicense', 'members can be filtered by gameLicense'),
    parameterCheck(
      doc,
      ROSTER_ROUTES.departmentAssignments,
      'memberId',
      'assignments can be filtered by memberId',
    ),
    fieldsCheck(
      doc,
      ROSTER_ROUTES.departmentAssignments,
      'assignments carry id, memberId, departmentId and rankId',
      [['id'], ['memberId'], ['departmentId'], ['rankId']],
    ),
    fieldsCheck(doc, ROSTER_ROUTES.departments, 'departments carry id and name', [['id'], ['name']]),
    fieldsCheck(doc, ROSTER_ROUTES.ranks, 'ranks carry id, departmentId, name and position', [
      ['id'],
      ['departmentId'],
      ['name'],
      ['position'],
    ]),
  ];
}

function operation(doc: Json, path: string): Json | undefined {
  const paths = doc.paths as Json;
  const item = paths[path];
  return isObject(item) && isObject(item.get) ? item.get : undefined;
}

function parameterCheck(doc: Json, path: string, name: string, assumption: string): AssumptionCheck {
  const op = operation(doc, path);
  if (!op) return { assumption, verdict: 'not described', detail: `GET ${path} is not in the description` };
  const params = [
    ...asArray(op.parameters),
    ...asArray((doc.paths as Json)[path] && ((doc.paths as Json)[path] as Json).parameters),
  ];
  const found = params.map((p) => resolve(doc, p)).some((p) => isObject(p) && p.name === name);
  return found
    ? { assumption, verdict: 'confirmed' }
    : { assumption, verdict: 'not described', detail: `no \`${name}\` parameter` };
}

function fieldsCheck(doc: Json, path: string, assumption: string, groups: string[][]): AssumptionCheck {
  const op = operation(doc, path);
  if (!op) return { assumption, verdict: 'not described', detail: `GET ${path} is not in the description` };
  const properties = recordProperties(doc, op);
  if (properties === null)
    return { assumption, verdict: 'not described', detail: 'its record schema is not described' };
  const missing = groups
    .filter((names) => !names.some((n) => properties.has(n)))
    .map((names) => names.join(' or '));
  if (missing.length === 0) return { assumption, verdict: 'confirmed' };
  return { assumption, verdict: 'contradicted', detail: `missing ${missing.join(', ')}` };
}

/** Property names of the records a list operation returns (`data[]` inside the envelope, or the array itself). */
function recordProperties(doc: Json, op: Json): Set<string> | null {
  const responses = isObject(op.responses) ? op.responses : {};
  const ok = resolve(doc, responses['200'] ?? responses['2XX'] ?? responses.default);
  if (!isObject(ok) || !isObject(ok.content)) return null;
  const media = resolve(doc, (ok.content as Json)['application/json']);
  if (!isObject(media)) return null;
  let schema = resolve(doc, media.schema);
  const data = isObject(schema) ? propertiesOf(doc, schema).get('data') : undefined;
  if (data !== undefined) schema = data;
  schema = resolve(doc, schema);
  if (isObject(schema) && schema.type === 'array') schema = resolve(doc, schema.items);
  if (!isObject(schema)) return null;
  const names = new Set(propertiesOf(doc, schema).keys());
  return names.size > 0 ? names : null;
}

/** A schema's properties, its `allOf` parts' too; a part that includes itself again is read once. */
function propertiesOf(doc: Json, schema: Json, seen = new Set<Json>()): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (seen.has(schema)) return out;
  seen.add(schema);
  if (isObject(schema.properties))
    for (const [k, v] of Object.entries(schema.properties)) out.set(k, resolve(doc, v));
  for (const part of asArray(schema.allOf)) {
    const resolved = resolve(doc, part);
    if (isObject(resolved)) for (const [k, v] of propertiesOf(doc, resolved, seen)) out.set(k, v);
  }
  return out;
}

/** Follows local `$ref`s (`#/components/...`), a bounded number of times. */
function resolve(doc: Json, value: unknown, depth = 0): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string' || depth > 10) return value;
  const parts = value.$ref.replace(/^#\//, '').split('/');
  let target: unknown = doc;
  for (const part of parts)
    target = isObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return resolve(doc, target, depth + 1);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * The fields of the records `GET path` lists, each with its schema (`$ref`s followed); null when
 * the description does not say.
 */
export function listedRecordFields(document: unknown, path: string): Map<string, Json> | null {
  if (!isObject(document) || !isObject(document.paths)) return null;
  const op = operation(document, path);
  if (!op) return null;
  const names = recordProperties(document, op);
  if (names === null) return null;
  const responses = isObject(op.responses) ? op.responses : {};
  const ok = resolve(document, responses['200'] ?? responses['2XX'] ?? responses.default) as Json;
  const media = resolve(document, (ok.content as Json)['application/json']) as Json;
  let schema = resolve(document, media.schema);
  const data = isObject(schema) ? propertiesOf(document, schema).get('data') : undefined;
  if (data !== undefined) schema = resolve(document, data);
  if (isObject(schema) && schema.type === 'array') schema = resolve(document, schema.items);
  const fields = new Map<string, Json>();
  if (!isObject(schema)) return null;
  for (const [name, value] of propertiesOf(document, schema)) fields.set(name, isObject(value) ? value : {});
  return fields;
}

/** The query parameters `GET path` takes (operation and path level), `$ref`s followed. */
export function listQueryParameters(document: unknown, path: string): Json[] {
  if (!isObject(document) || !isObject(document.paths)) return [];
  const op = operation(document, path);
  if (!op) return [];
  const item = (document.paths as Json)[path] as Json;
  return [...asArray(op.parameters), ...asArray(item.parameters)]
    .map((p) => resolve(document, p))
    .filter((p): p is Json => isObject(p) && (p.in === undefined || p.in === 'query'));
}
