/**
 * ACL in the shape of `add_ace principal object allow|deny` and `add_principal child parent`.
 * An ACE on `command` covers `command.roster`; a deny wins over an allow.
 */
export type AceRule = readonly [principal: string, object: string, mode: 'allow' | 'deny'];

export class AceStore {
  private readonly aces: AceRule[] = [];
  private readonly parents = new Map<string, Set<string>>();

  addAce(principal: string, object: string, mode: 'allow' | 'deny'): void {
    this.aces.push([principal, object, mode]);
  }

  addPrincipal(child: string, parent: string): void {
    let set = this.parents.get(child);
    if (!set) {
      set = new Set();
      this.parents.set(child, set);
    }
    set.add(parent);
  }

  /** Removes the link, every copy of it (se/Security.cpp, RemovePrincipalInheritance). */
  removePrincipal(child: string, parent: string): void {
    this.parents.get(child)?.delete(parent);
  }

  allowed(principals: readonly string[], object: string): boolean {
    const all = this.expand([...principals, 'builtin.everyone']);
    let allow = false;
    for (const [principal, ace, mode] of this.aces) {
      if (!all.has(principal) || !(object === ace || object.startsWith(`${ace}.`))) continue;
      if (mode === 'deny') return false;
      allow = true;
    }
    return allow;
  }

  private expand(start: readonly string[]): Set<string> {
    const seen = new Set<string>();
    const queue = [...start];
    while (queue.length > 0) {
      const p = queue.pop()!;
      if (seen.has(p)) continue;
      seen.add(p);
      for (const parent of this.parents.get(p) ?? []) queue.push(parent);
    }
    return seen;
  }
}
