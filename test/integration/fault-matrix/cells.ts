import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Decision, FxServer } from '../../../dev/emulator';

/** What one table cell found. */
export interface Check {
  ok: boolean;
  cell: string;
  problems: string[];
}

/** The decision a player should get: admitted, or refused with a message matching `reason`. */
export type Expected = { admitted: true } | { admitted: false; reason: RegExp; says: string };
export const ADMIT: Expected = { admitted: true };

/** An online player and the member other resources should see for them. */
export interface Online {
  id: number;
  member: string;
  name: string;
}

export const show = (d: Decision) => (d.admitted ? 'admitted' : `refused "${d.reason}"`);
export const says = (e: Expected) => (e.admitted ? 'admitted' : e.says);
export const matches = (d: Decision, e: Expected) =>
  d.admitted === e.admitted && (d.admitted || (!e.admitted && e.reason.test(d.reason)));
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const check = (problems: string[], cell: string): Check => ({
  ok: problems.length === 0,
  cell,
  problems,
});

/** The most requests that arrived within any 60 s span (`times` sorted). */
export function maxInRolling60s(times: readonly number[]): number {
  let max = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= 60_000) start++;
    max = Math.max(max, end - start + 1);
  }
  return max;
}

/**
 * The last two columns of a row: no SCRIPT ERROR in the server's log and no unhandled rejection or
 * exception since the row started; no key in any of the places `leaks` names.
 */
export function crashAndKeyCells(
  server: FxServer,
  unhandled: readonly string[],
  leaks: readonly string[],
  leakNoun: string,
): { crash: Check; key: Check } {
  const crashes = [...server.log.lines.filter((l) => l.includes('SCRIPT ERROR')), ...unhandled];
  return {
    crash: check(crashes, crashes.length === 0 ? 'clean' : `${crashes.length} error(s)`),
    key: check(
      leaks.map((where) => `${leakNoun} found in ${where}`),
      leaks.length === 0 ? 'nowhere' : leaks.join(', '),
    ),
  };
}

/** A piece of a secret this long is a leak (shorter ones could be chance among hex ids). */
const FRAGMENT = 12;

/**
 * Where any of the keys (whole, their secret part, or any 12 characters of the secret in a row)
 * shows up: log, events, state bags, client events, files.
 */
export function keyLeaks(
  server: FxServer,
  events: readonly string[],
  folder: string,
  keys: readonly string[],
): string[] {
  const secrets = keys.map((key) => key.split('_')[2] ?? key);
  const fragments = secrets.flatMap((secret) =>
    Array.from({ length: Math.max(0, secret.length - FRAGMENT + 1) }, (_, i) =>
      secret.slice(i, i + FRAGMENT),
    ),
  );
  const needles = [...keys, ...secrets, ...fragments].filter((needle) => needle.length >= 8);
  const places: [string, string][] = [
    ['log', server.log.lines.join('\n')],
    ['events', events.join('\n')],
    ['state bags', JSON.stringify(server.bags.writes)],
    ['client events', JSON.stringify(server.clientEvents)],
  ];
  for (const file of readdirSync(folder, { recursive: true }) as string[]) {
    const path = join(folder, file);
    if (statSync(path).isFile()) places.push([`file ${file}`, readFileSync(path, 'utf8')]);
  }
  return places.filter(([, text]) => needles.some((needle) => text.includes(needle))).map(([where]) => where);
}
