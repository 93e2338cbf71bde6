/**
 * Principal names the resource may hand to `ExecuteCommand`. Every part comes from the slug rule,
 * so a name holds only `a-z`, `0-9`, `_` and the dots between parts: nothing a service sends can
 * add a space, a quote, a `;` or a line break to a console command.
 */

/** Lowercase; every run of characters other than `a-z0-9` becomes one `_`; `_` trimmed at both ends. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** A prefix or a principal the resource makes: slug parts joined by dots. */
export const PRINCIPAL_PATTERN = /^[a-z0-9_]+(?:\.[a-z0-9_]+)*$/;

/**
 * FXServer's own principal namespaces: `group.*` and `builtin.*` carry the server's ACEs,
 * `resource.*` is what a resource's commands run as, `identifier.*` and `player.*` are the clients,
 * `system.*` the console. A prefix in one of them would let a roster name reach those principals
 * (a department `Admin` under `group` makes its members `group.admin`).
 */
export const RESERVED_NAMESPACES = [
  'group',
  'resource',
  'builtin',
  'system',
  'identifier',
  'player',
] as const;

/** True when the prefix's first part is one of FXServer's own namespaces. */
export function isReservedPrefix(prefix: string): boolean {
  return (RESERVED_NAMESPACES as readonly string[]).includes(prefix.split('.')[0] ?? '');
}

/** A player's principal: FXServer gives every client `identifier.<identifier>` from the moment it connects. */
const PLAYER_PRINCIPAL = /^identifier\.license:[0-9a-f]{40}$/;

/** True for the only shapes the resource ever passes to add_principal / remove_principal. */
export function isSafePrincipal(name: string): boolean {
  return PRINCIPAL_PATTERN.test(name) || PLAYER_PRINCIPAL.test(name);
}

/**
 * The principal a player holds for their `license:` identifier (Client.h,
 * UpdateCachedPrincipalValues: `identifier.<each identifier>`, set before playerConnecting), or
 * null for anything that is not exactly `license:<40 hex>`.
 */
export function playerPrincipal(license: string): string | null {
  const name = `identifier.${license.trim().toLowerCase()}`;
  return PLAYER_PRINCIPAL.test(name) ? name : null;
}

/** `child parent`: the child principal inherits everything the parent is allowed. */
export interface PrincipalLink {
  child: string;
  parent: string;
}

export function linkKey(link: PrincipalLink): string {
  return `${link.child} ${link.parent}`;
}
