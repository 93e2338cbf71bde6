import { fx } from './natives';

/** `license:` and the 40 hex digits of a SHA-1, as FXServer writes a player's Rockstar license. */
const LICENSE = /^license:[0-9a-f]{40}$/;

/**
 * The game license `value` names, as FXServer writes it (lower case), or null when it is none: a
 * license another way (a different length, other characters, `license2:`) is no player's. Case
 * and surrounding spaces do not count, so a license pasted or stored elsewhere still matches.
 */
export function gameLicense(value: string): string | null {
  const key = value.trim().toLowerCase();
  return LICENSE.test(key) ? key : null;
}

/**
 * The player's `license:` identifier, exactly that type. GetPlayerIdentifierByType('license')
 * is a prefix match that would also accept `license2:`, so the list is read here instead.
 */
export function licenseOf(src: string): string | null {
  for (const identifier of fx.getPlayerIdentifiers(src) ?? []) {
    const found = typeof identifier === 'string' ? gameLicense(identifier) : null;
    if (found !== null) return found;
  }
  return null;
}
