import type { FxServer, ScriptResource } from '../emulator';

/**
 * `IsPlayerAceAllowed(src, ace)` asked from a caller resource, as vMenu or a police script asks
 * it: the answer comes from FXServer's ACL, where the resource's principals sit.
 */
export function aceAllowed(caller: ScriptResource, src: number, ace: string): boolean {
  return caller.eval(`IsPlayerAceAllowed(${JSON.stringify(String(src))}, ${JSON.stringify(ace)})`) === true;
}

/** The line the sandbox prints for it. */
export function aceLine(caller: ScriptResource, src: number, ace: string, suffix = ''): string {
  const call = `IsPlayerAceAllowed(${src}, '${ace}')${suffix}`;
  return `${call.padEnd(52)} -> ${aceAllowed(caller, src, ace)}`;
}

/**
 * The parents of a player's `identifier.license:…` principal, read from the console's
 * `list_principals` (`child <- parent` lines), as an owner would check what the resource granted.
 */
export function principalsOf(server: FxServer, license: string): string[] {
  const child = `identifier.${license}`.toLowerCase();
  const from = server.log.entries.length;
  server.executeCommand('list_principals');
  return server.log.entries
    .slice(from)
    .filter((e) => e.resource === 'server' && e.text.startsWith(`${child} <- `))
    .map((e) => e.text.slice(`${child} <- `.length));
}

/** `list_principals` for one player, shortened to one line. */
export function principalsLine(server: FxServer, src: number, license: string): string {
  const parents = principalsOf(server, license);
  const shortLicense = `identifier.${license.slice(0, 'license:'.length + 8)}…`;
  return `list_principals, player ${src}'s links: ${shortLicense} <- ${parents.join(', ') || 'none'}`;
}
