import { hasScope } from '../../roster/client/scope-warnings';

const WRITE_SCOPES = ['roster:write', 'departments:write'];

/**
 * Whether the key may write ranks, so nothing is sent for nothing. Any write scope may do until
 * the service names the one it wants in an `insufficient_scope`; from then on only that one.
 */
export class WriteScope {
  /** The write scope the service asked for, once an `insufficient_scope` named it. */
  private needed: string | null = null;

  /** The service named the write scope it wants. */
  named(scope: string): void {
    this.needed = scope;
  }

  /** A reason when the key surely cannot write; null when it may or its scopes are not known yet. */
  missing(scopes: readonly string[] | null): string | null {
    if (scopes === null) return null;
    const needed = this.needed ? [this.needed] : WRITE_SCOPES;
    if (needed.some((scope) => hasScope(scopes, scope))) return null;
    return `The server's roster API key may not change ranks: it lacks ${needed.length === 1 ? `the scope ${needed[0]}` : `a write scope (${needed.join(' or ')})`}. The owner adds it to the key in the roster dashboard (Settings, API Keys).`;
  }
}
