import { hashSecret, secretMatches } from '../mock-http/api-keys';
import { hexDigest } from '../mock-http/seeded-random';

/** `<KEY_PREFIX>_<prefix>_<secret>`: the document names the form, not the literal prefix. */
export const KEY_PREFIX = 'lms';

export const SCOPES = ['read', 'enroll:write'] as const;

export interface KeySpec {
  /** Name the token is returned under in `mock.keys`. */
  name: string;
  scopes: readonly string[];
  revoked?: boolean;
}

export interface LearningKey {
  /** The `<prefix>` part of the token: what counters and the log name the key by. */
  prefix: string;
  name: string;
  scopes: string[];
  revoked: boolean;
  /** sha256 of the secret; like the real service, only a hash is kept. */
  secretHash: Buffer;
}

export const DEFAULT_KEY_SPECS: readonly KeySpec[] = [
  { name: 'enroll', scopes: ['enroll:write'] },
  { name: 'read', scopes: ['read'] },
  { name: 'none', scopes: [] },
  { name: 'revoked', scopes: ['enroll:write'], revoked: true },
];

/** Key records and tokens; secrets derive from the seed, so the same seed gives the same tokens. */
export function buildKeys(
  seed: number,
  specs: readonly KeySpec[],
): { records: LearningKey[]; tokens: Map<string, string> } {
  const records: LearningKey[] = [];
  const tokens = new Map<string, string>();
  for (const spec of specs) {
    const prefix = `k${hexDigest('learning-key-prefix', seed, spec.name).slice(0, 8)}`;
    const secret = hexDigest('learning-key-secret', seed, spec.name).slice(0, 32);
    tokens.set(spec.name, `${KEY_PREFIX}_${prefix}_${secret}`);
    records.push({
      prefix,
      name: spec.name,
      scopes: [...spec.scopes],
      revoked: spec.revoked ?? false,
      secretHash: hashSecret(secret),
    });
  }
  return { records, tokens };
}

/** The `<prefix>` a token names, or null when it is not `lms_<prefix>_<secret>`. */
export function keyPrefixOf(token: string): string | null {
  const parts = token.split('_');
  return parts.length === 3 && parts[0] === KEY_PREFIX && parts[1] !== '' ? (parts[1] ?? null) : null;
}

/** The key a token names when its secret matches and it is not revoked. */
export function verifyToken(token: string, keys: readonly LearningKey[]): LearningKey | null {
  const prefix = keyPrefixOf(token);
  const key = prefix === null ? undefined : keys.find((k) => k.prefix === prefix);
  if (!key || key.revoked) return null;
  return secretMatches(key.secretHash, token.split('_')[2] ?? '') ? key : null;
}

/** `enroll:write` includes everything in `read`. */
export function hasScope(key: LearningKey, scope: string): boolean {
  return key.scopes.includes(scope) || (scope === 'read' && key.scopes.includes('enroll:write'));
}
