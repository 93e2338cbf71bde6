import { license } from './arguments';
import { fx } from './natives';

/**
 * The player's `license:` identifier, exactly that type. GetPlayerIdentifierByType('license')
 * is a prefix match that would also accept `license2:`, so the list is read here instead.
 */
export function licenseOf(src: string): string | null {
  for (const identifier of fx.getPlayerIdentifiers(src) ?? []) {
    const found = license(identifier);
    if (found !== null) return found;
  }
  return null;
}
