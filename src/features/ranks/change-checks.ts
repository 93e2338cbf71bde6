import { hasScope } from '../../roster/client/scope-warnings';

export interface ChangeSettings {
  /** `refresh.auditSeconds` (0: off). */
  auditSeconds: number;
  /** `refresh.intervalSeconds`. */
  intervalSeconds: number;
}

/**
 * What `roster doctor` says about changes both ways: rank changes from the game, the audit feed.
 * A scope the key lacks is named by the scope check, with what it turns off; these lines say what
 * the key's scopes and the settings make of the rest.
 */
export function changeLines(scopes: readonly string[], settings: ChangeSettings): string[] {
  const lines: string[] = [];
  const writes = ['roster:write', 'departments:write'].filter((scope) => hasScope(scopes, scope));
  if (writes.length > 0) {
    lines.push(
      `✓ rank changes: the key has ${writes.join(' and ')}, so \`rank\` and setRank can change ranks${writes.length === 1 ? ' (if the service wants the other write scope, the first change names it)' : ''}.`,
    );
  }
  if (settings.auditSeconds === 0) {
    lines.push(
      `! audit feed: off (refresh.auditSeconds is 0); changes on the roster reach online players with the refresh every ${settings.intervalSeconds} s.`,
    );
  } else if (hasScope(scopes, 'audit:read')) {
    lines.push(
      `✓ audit feed: the key has audit:read; changes on the roster reach online players within about ${settings.auditSeconds} s.`,
    );
  }
  return lines;
}
