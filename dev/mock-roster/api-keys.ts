import { hashSecret, secretMatches } from '../mock-http/api-keys';
import { hexDigest } from '../mock-http/seeded-random';

/** Scope groups of the API document; `audit` has only a read scope. */
export const SCOPE_GROUPS = [
  'roster',
  'departments',
  'timelogs',
  'loa',
  'certifications',
  'disciplinary',
  'documents',
  'applications',
  'community',
  'audit',
] as const;

export const ALL_SCOPES: readonly string[] = SCOPE_GROUPS.flatMap((g) =>
  g === 'audit' ? ['audit:read'] : [`${g}:read`, `${g}:write`],
);

export const KEY_PREFIX = 'rstr';
export const DEFAULT_PER_MINUTE = 120;
export const DEFAULT_PER_DAY = 25_000;

/** A key a test wants; every field but `name` and `scopes` is optional. */
export interface KeySpec {
  /** Name the token is returned under in `mock.keys`. */
  name: string;
  scopes: readonly string[];
  /** Key id (no underscores); defaults to one derived from the name. */
  id?: string;
  perMinute?: number;
  perDay?: number;
  /** Epoch ms; requests at or after it fail with invalid_api_key. */
  expiresAt?: number;
  revoked?: boolean;
  /** Caller addresses allowed (exact match on the socket's remote address). */
  ipAllowlist?: readonly string[];
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  scopes: string[];
  perMinute: number;
  perDay: number;
  expiresAt: number | null;
  revoked: boolean;
  ipAllowlist: string[] | null;
  /** sha256 of the secret: like the real service, only a hash is kept. */
  secretHash: Buffer;
  owner: { id: string; name: string };
}

const READ_SCOPES = ALL_SCOPES.filter((s) => s.endsWith(':read'));

/** Keys every mock starts with (tests add more through `keys`). */
export const DEFAULT_KEY_SPECS: readonly KeySpec[] = [
  { name: 'full', scopes: ALL_SCOPES },
  { name: 'readOnly', scopes: READ_SCOPES },
  { name: 'rosterOnly', scopes: ['roster:read'] },
  { name: 'rosterWrite', scopes: ['roster:write', 'departments:read'] },
  { name: 'departmentsWrite', scopes: ['departments:write'] },
  { name: 'lowLimit', scopes: READ_SCOPES, perMinute: 10 },
  { name: 'revoked', scopes: ALL_SCOPES, revoked: true },
  { name: 'expired', scopes: ALL_SCOPES, expiresAt: Date.UTC(2020, 0, 1) },
  // TEST-NET-3 address: never the loopback a test connects from.
  { name: 'allowlisted', scopes: READ_SCOPES, ipAllowlist: ['203.0.113.7'] },
];

export const KEY_OWNER = { id: 'usr_owner', name: 'Community Owner' };

/** Builds the key records and their tokens; secrets derive from the seed, so the CLI prints stable keys. */
export function buildKeys(
  seed: number,
  specs: readonly KeySpec[],
): { records: ApiKeyRecord[]; tokens: Map<string, string> } {
  const records: ApiKeyRecord[] = [];
  const tokens = new Map<string, string>();
  for (const spec of specs) {
    const id = spec.id ?? `k${hexDigest('key-id', seed, spec.name).slice(0, 10)}`;
    if (id.includes('_')) throw new Error(`key id ${id} must not contain "_"`);
    const secret = hexDigest('key-secret', seed, spec.name);
    tokens.set(spec.name, `${KEY_PREFIX}_${id}_${secret}`);
    records.push({
      id,
      name: spec.name,
      scopes: [...spec.scopes],
      perMinute: spec.perMinute ?? DEFAULT_PER_MINUTE,
      perDay: spec.perDay ?? DEFAULT_PER_DAY,
      expiresAt: spec.expiresAt ?? null,
      revoked: spec.revoked ?? false,
      ipAllowlist: spec.ipAllowlist ? [...spec.ipAllowlist] : null,
      secretHash: hashSecret(secret),
      owner: KEY_OWNER,
    });
  }
  return { records, tokens };
}

/** The key id of a token, or null when it is not `<prefix>_<id>_<secret>`. */
export function keyIdOf(token: string): string | null {
  const parts = token.split('_');
  return parts.length >= 3 && parts.every((p) => p !== '') ? (parts[1] ?? null) : null;
}

/** The key a token names if the secret matches and the key is neither revoked nor expired. */
export function verifyToken(token: string, keys: readonly ApiKeyRecord[], now: number): ApiKeyRecord | null {
  const parts = token.split('_');
  if (parts.length < 3 || parts[0] !== KEY_PREFIX) return null;
  const key = keys.find((k) => k.id === parts[1]);
  if (!key || !secretMatches(key.secretHash, parts.slice(2).join('_'))) return null;
  if (key.revoked || (key.expiresAt !== null && now >= key.expiresAt)) return null;
  return key;
}

/** True when the key carries the scope, or the write scope of the same group (write implies read). */
export function hasScope(key: ApiKeyRecord, scope: string): boolean {
  if (key.scopes.includes(scope)) return true;
  const [group, access] = scope.split(':');
  return access === 'read' && key.scopes.includes(`${group}:write`);
}
