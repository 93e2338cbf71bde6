/**
 * FXServer's ACL, after code/client/citicore/se/Security.cpp (and Security.h):
 * - principals and objects are lowercased (Security.h constructors);
 * - `add_principal child parent` is a multimap insert: adding twice adds twice, and
 *   `remove_principal` removes every copy (RemovePrincipalInheritance);
 * - `add_ace` inserts, `remove_ace` removes every entry with that principal, object and type;
 * - a check of one principal gathers it, `builtin.everyone` and its ancestors, then walks the
 *   object and each dotted parent (`a.b.c`, `a.b`, `a`): any matching deny answers false at once,
 *   else any matching allow answers true (CheckPrivilege(principal, object));
 * - a check of the current caller tries each principal on the principal stack separately and is
 *   true if any one passes, so a deny on one principal never cancels another's allow; an empty
 *   stack checks `builtin.everyone` (CheckPrivilege(object), LoopPrincipalStack).
 */
export type AccessType = 'allow' | 'deny';

interface Ace {
  readonly principal: string;
  readonly object: string;
  readonly type: AccessType;
}

/** One principal stack entry: a Principal, or a PrincipalSource's list (a player's principals). */
export type PrincipalEntry = readonly string[];

const EVERYONE = 'builtin.everyone';

export class AceStore {
  private aces: Ace[] = [];
  private inheritance: (readonly [child: string, parent: string])[] = [];
  private stack: PrincipalEntry[] = [];

  constructor() {
    // Security.cpp seGetCurrentContext: the global context starts with `system.console` allowed `command`.
    this.addAce('system.console', 'command', 'allow');
  }

  addAce(principal: string, object: string, type: AccessType): void {
    this.aces.push({ principal: lower(principal), object: lower(object), type });
  }

  removeAce(principal: string, object: string, type: AccessType): void {
    const p = lower(principal);
    const o = lower(object);
    this.aces = this.aces.filter((a) => !(a.principal === p && a.object === o && a.type === type));
  }

  addPrincipal(child: string, parent: string): void {
    this.inheritance.push([lower(child), lower(parent)]);
  }

  /** Removes the link, every copy of it (RemovePrincipalInheritance). */
  removePrincipal(child: string, parent: string): void {
    const c = lower(child);
    const p = lower(parent);
    this.inheritance = this.inheritance.filter(([a, b]) => !(a === c && b === p));
  }

  /** CheckPrivilege(principal, object): `test_ace`, and each principal of a stack check. */
  checkPrincipal(principal: string, object: string): boolean {
    const start = lower(principal);
    const principals = new Set([start, EVERYONE]);
    this.addAncestors(start, principals);
    let allowed = false;
    for (const candidate of objectAndParents(lower(object))) {
      for (const ace of this.aces) {
        if (ace.object !== candidate || !principals.has(ace.principal)) continue;
        if (ace.type === 'deny') return false; // "deny trumps all"
        allowed = true;
      }
    }
    return allowed;
  }

  /** Any of `principals` passes on its own (a PrincipalSource on the stack, e.g. a player). */
  allowed(principals: readonly string[], object: string): boolean {
    return principals.some((p) => this.checkPrincipal(p, object));
  }

  /** CheckPrivilege(object): the principal stack, or `builtin.everyone` when it is empty. */
  checkCurrent(object: string): boolean {
    if (this.stack.length === 0) return this.checkPrincipal(EVERYONE, object);
    return this.stack.some((entry) => this.allowed(entry, object));
  }

  /** ScopedPrincipal: `fn` runs with `entry` pushed on the principal stack. */
  runAs<T>(entry: PrincipalEntry, fn: () => T): T {
    this.stack.unshift(entry);
    try {
      return fn();
    } finally {
      this.stack.shift();
    }
  }

  /** ScopedPrincipalReset then ScopedPrincipal: `fn` runs with only `entry` on the stack. */
  runAlone<T>(entry: PrincipalEntry, fn: () => T): T {
    const saved = this.stack;
    this.stack = [];
    try {
      return this.runAs(entry, fn);
    } finally {
      this.stack = saved;
    }
  }

  /**
   * `add_ace`/`remove_ace` refuse to change a principal that is on the stack ("ones own access").
   * Security.cpp compares the argument as typed with the stack's lower-cased principals, so a
   * differently cased spelling slips through (and then changes that principal after all).
   */
  onStack(principal: string): boolean {
    return this.stack.some((entry) => entry.some((e) => lower(e) === principal));
  }

  /** `list_aces` / `list_principals` lines. */
  listAces(): string[] {
    return this.aces.map((a) => `${a.principal} -> ${a.object} = ${a.type.toUpperCase()}`);
  }

  listPrincipals(): string[] {
    return this.inheritance.map(([c, p]) => `${c} <- ${p}`);
  }

  /** ContextImpl::AddPrincipals: depth first, each principal once; a parent already in the set is not followed. */
  private addAncestors(principal: string, set: Set<string>): void {
    for (const [child, parent] of this.inheritance) {
      if (child !== principal || set.has(parent)) continue;
      set.add(parent);
      this.addAncestors(parent, set);
    }
  }
}

function lower(s: string): string {
  return s.toLowerCase();
}

/** 'object.parent.child' → ['object.parent.child', 'object.parent', 'object']. */
function objectAndParents(object: string): string[] {
  const out = [object];
  let rest = object;
  for (let dot = rest.lastIndexOf('.'); dot >= 0; dot = rest.lastIndexOf('.')) {
    rest = rest.slice(0, dot);
    out.push(rest);
  }
  return out;
}
