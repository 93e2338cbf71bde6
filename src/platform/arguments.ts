/** Argument checks at the export boundary: anything unexpected becomes `null`, never a throw. */

import { gameLicense } from './identifiers';

/** A server id as a number or a numeric string, as FXServer passes them. */
export function serverId(value: unknown): string | null {
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 ? String(value) : null;
  if (typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value)) return value;
  return null;
}

/** A department or rank key: a non-empty string, or a number used as an id. */
export function key(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** A game license, as FXServer writes it (`gameLicense`). */
export function license(value: unknown): string | null {
  return typeof value === 'string' ? gameLicense(value) : null;
}
