import { fx } from '../../../platform/natives';
import { isSafePrincipal, type PrincipalLink } from '../../../platform/principal-names';
import type { PrincipalCommands } from '../principal-grants';

/** Whether FXServer lets this resource run each command (se/Security.cpp checks `command.<name>`). */
export function principalPermission(resource: string): { add: boolean; remove: boolean } {
  const principal = `resource.${resource}`;
  return {
    add: fx.IsPrincipalAceAllowed(principal, 'command.add_principal'),
    remove: fx.IsPrincipalAceAllowed(principal, 'command.remove_principal'),
  };
}

/**
 * add_principal / remove_principal through ExecuteCommand, which runs as `resource.<name>`
 * (ResourceScriptFunctions.cpp, EXECUTE_COMMAND). A name that is not a safe principal is never
 * put into a command line.
 */
export function principalCommands(resource: string): PrincipalCommands {
  const run = (verb: string, link: PrincipalLink) => {
    if (!isSafePrincipal(link.child) || !isSafePrincipal(link.parent)) return;
    fx.ExecuteCommand(`${verb} ${link.child} ${link.parent}`);
  };
  return {
    permitted() {
      const allowed = principalPermission(resource);
      return allowed.add && allowed.remove;
    },
    add: (link) => run('add_principal', link),
    remove: (link) => run('remove_principal', link),
  };
}
