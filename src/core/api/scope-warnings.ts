/** The scopes the resource reads with. */
export const REQUIRED_SCOPES = ['roster:read', 'departments:read'] as const;

/** True if `scopes` grant `needed`; a write scope includes the read of its group. */
export function hasScope(scopes: readonly string[], needed: string): boolean {
  const held = new Set(scopes.map((scope) => scope.trim().toLowerCase()));
  const [group, access] = needed.toLowerCase().split(':');
  return held.has(`${group}:${access}`) || (access === 'read' && held.has(`${group}:write`));
}

/** One clear warning per scope the resource needs and the key lacks. */
export function scopeWarnings(
  scopes: readonly string[],
  needed: readonly string[] = REQUIRED_SCOPES,
): string[] {
  return needed
    .filter((scope) => !hasScope(scopes, scope))
    .map(
      (scope) =>
        `The roster API key lacks the scope ${scope}${explain(scope)}. Add it to the key in the roster dashboard (Settings, API Keys).`,
    );
}

function explain(scope: string): string {
  if (scope.startsWith('roster:'))
    return ': members cannot be looked up, so joining players cannot be checked';
  if (scope.startsWith('departments:')) return ': department and rank names are unknown';
  return '';
}
