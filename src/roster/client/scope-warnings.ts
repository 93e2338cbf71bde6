/** A part of the resource that needs a scope, and what stops when the key lacks it. */
export interface ScopeUse {
  /** Any one of these is enough (the service does not say which write scope a rank change needs). */
  anyOf: readonly string[];
  /** What an owner knows the part by. */
  part: string;
  /** What happens without it. */
  without: string;
  /** Without it the gate itself cannot decide joins as configured. */
  required: boolean;
}

/** Every scope the resource uses, most needed first (the README's scopes table). */
export const SCOPE_USES: readonly ScopeUse[] = [
  {
    anyOf: ['roster:read'],
    part: 'joins',
    without:
      'members cannot be looked up, so joining players cannot be checked (gate.onError decides every join)',
    required: true,
  },
  {
    anyOf: ['departments:read'],
    part: 'department and rank names',
    without:
      'department and rank names are unknown, so a gate.departments rule falls to gate.onError, and principals, queue priority by rank and job sync have nothing to go on',
    required: true,
  },
  {
    anyOf: ['audit:read'],
    part: 'the roster mirror and the change feed',
    without:
      'every join is looked up, and changes on the roster reach online players only with the periodic refresh (refresh.intervalSeconds)',
    required: false,
  },
  {
    anyOf: ['roster:write', 'departments:write'],
    part: 'rank changes',
    without: 'the `rank` command and setRank are refused',
    required: false,
  },
  {
    anyOf: ['timelogs:read'],
    part: 'duty hours',
    without: 'duty hours are unknown (getDutyHours answers null)',
    required: false,
  },
];

/** True if `scopes` grant `needed`; a write scope includes the read of its group. */
export function hasScope(scopes: readonly string[], needed: string): boolean {
  const held = new Set(scopes.map((scope) => scope.trim().toLowerCase()));
  const [group, access] = needed.toLowerCase().split(':');
  return held.has(`${group}:${access}`) || (access === 'read' && held.has(`${group}:write`));
}

/** The uses `scopes` leave without their scope. */
export function missingScopes(scopes: readonly string[], uses: readonly ScopeUse[] = SCOPE_USES): ScopeUse[] {
  return uses.filter((use) => !use.anyOf.some((scope) => hasScope(scopes, scope)));
}

/** `roster:read`, or `roster:write or departments:write`. */
export function scopeName(use: ScopeUse): string {
  return use.anyOf.join(' or ');
}

/** One warning at start per scope the gate needs and the key lacks. */
export function scopeWarnings(scopes: readonly string[]): string[] {
  return missingScopes(
    scopes,
    SCOPE_USES.filter((use) => use.required),
  ).map(
    (use) =>
      `The roster API key lacks the scope ${scopeName(use)}: ${use.without}. Add it to the key in the roster dashboard (Settings, API Keys).`,
  );
}

/**
 * `roster doctor`'s scope check: ✓ with the scopes in use, or a line naming each one missing and
 * what its absence turns off (✗ when the gate needs it, ! when a part of the resource is off).
 */
export function scopeLines(scopes: readonly string[]): string[] {
  const missing = missingScopes(scopes);
  if (missing.length === 0) {
    const held = SCOPE_USES.map(
      (use) => use.anyOf.filter((scope) => hasScope(scopes, scope)).join(' and ') || scopeName(use),
    );
    return [`✓ scopes: the key has every scope the resource uses (${held.join(', ')}).`];
  }
  const mark = (use: ScopeUse) => (use.required ? '✗' : '!');
  const count = missing.length === 1 ? 'a scope' : `${missing.length} scopes`;
  return [
    `${missing.some((use) => use.required) ? '✗' : '!'} scopes: the key lacks ${count} the resource uses; add ${missing.length === 1 ? 'it' : 'them'} to the key in the roster dashboard (Settings, API Keys):`,
    ...missing.map((use) => `  ${mark(use)} ${scopeName(use)} (${use.part}): ${use.without}.`),
  ];
}
