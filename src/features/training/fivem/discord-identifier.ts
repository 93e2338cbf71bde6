import { fx } from '../../../platform/natives';

const DISCORD = /^discord:(\d{5,20})$/i;

/** The numeric id of the player's `discord:` identifier, or null when there is none. */
export function discordOf(src: string): string | null {
  let identifiers: unknown;
  try {
    identifiers = fx.getPlayerIdentifiers(src);
  } catch {
    return null;
  }
  if (!Array.isArray(identifiers)) return null;
  for (const identifier of identifiers) {
    const match = typeof identifier === 'string' ? DISCORD.exec(identifier.trim()) : null;
    if (match) return match[1]!;
  }
  return null;
}
