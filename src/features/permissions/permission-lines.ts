import type { Ladders } from './ladders';

/** The two server.cfg lines that let the resource change principals. */
export function aclLines(resource: string): [string, string] {
  return [
    `add_ace resource.${resource} command.add_principal allow`,
    `add_ace resource.${resource} command.remove_principal allow`,
  ];
}

/** The line said once at start when those lines are missing. */
export function blockedMessage(resource: string): string {
  const [add, remove] = aclLines(resource);
  return `permissions: FXServer does not let this resource change principals, so no roster principals are granted (gating is unaffected). Add to server.cfg: \`${add}\` and \`${remove}\`, or set permissions.enabled to false.`;
}

export interface PermissionStatus {
  enabled: boolean;
  resource: string;
  prefix: string;
  /** Whether `resource.<name>` is allowed command.add_principal and command.remove_principal. */
  allowed: { add: boolean; remove: boolean };
  /** Ladders of the loaded catalog, or null before departments and ranks are known. */
  ladders: Ladders | null;
  grantedLinks: number;
}

/** What `roster doctor` says about permissions, with each department's principals top to bottom. */
export function permissionLines(status: PermissionStatus): string[] {
  if (!status.enabled)
    return ['! permissions: off (permissions.enabled is false); no roster principals are granted.'];
  const lines: string[] = [];
  const missing = aclLines(status.resource).filter(
    (_, i) => !(i === 0 ? status.allowed.add : status.allowed.remove),
  );
  if (missing.length > 0) {
    lines.push(
      '✗ permissions: FXServer does not let this resource change principals, so none are granted. Add to server.cfg:',
    );
    for (const line of missing) lines.push(`    ${line}`);
  } else {
    lines.push(
      `✓ permissions: principals granted to admitted members (${status.grantedLinks} link(s) in force).`,
    );
  }
  const ladders = status.ladders;
  if (ladders === null) {
    lines.push('  Principals follow once departments and ranks are loaded.');
    return lines;
  }
  lines.push(`  Every admitted member: ${ladders.member}`);
  lines.push('  Each department, most senior rank first (an ACE on one covers those above it):');
  for (const department of ladders.departments) {
    const chain = [...department.ranks.map((r) => r.principal), department.principal];
    lines.push(`  ${department.label}: ${chain.join(' > ')}`);
  }
  for (const problem of ladders.problems) lines.push(`  ! ${problem}`);
  return lines;
}
