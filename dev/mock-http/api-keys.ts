import { createHash, timingSafeEqual } from 'node:crypto';

/** sha256 of a key's secret: like the real services, a mock keeps only the hash. */
export const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/** Whether `secret` is the one `hash` was made from (compared in constant time). */
export const secretMatches = (hash: Buffer, secret: string): boolean =>
  timingSafeEqual(hash, hashSecret(secret));

/** The default keys with a test's own added; one with a default's name replaces it. */
export function withExtraKeys<S extends { name: string }>(defaults: readonly S[], extra: readonly S[]): S[] {
  return [...defaults.filter((d) => !extra.some((k) => k.name === d.name)), ...extra];
}

/** The key named `nameOrId` (its name, or its id as `idOf` gives it); throws naming `mock` when there is none. */
export function keyNamed<K extends { name: string }>(
  keys: readonly K[],
  nameOrId: string,
  idOf: (key: K) => string,
  mock: string,
): K {
  const key = keys.find((k) => k.name === nameOrId || idOf(k) === nameOrId);
  if (!key) throw new Error(`${mock}: no key ${nameOrId}`);
  return key;
}
