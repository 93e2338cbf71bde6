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
