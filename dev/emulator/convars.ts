/**
 * Convars as scripts read them (citizen-scripting-core/src/ConsoleScriptFunctions.cpp):
 * the default when missing, unparsable, or restricted by `add_convar_permission` (once any
 * entry exists for a convar, only listed resources may read it).
 */
export class ConvarStore {
  private readonly values = new Map<string, string>();
  private readonly readers = new Map<string, Set<string>>();

  set(name: string, value: string): void {
    this.values.set(name, value);
  }

  raw(name: string): string | undefined {
    return this.values.get(name);
  }

  addReadPermission(resource: string, convar: string): void {
    let set = this.readers.get(convar);
    if (!set) {
      set = new Set();
      this.readers.set(convar, set);
    }
    set.add(resource);
  }

  canRead(resource: string, name: string): boolean {
    const set = this.readers.get(name);
    return !set || set.has(resource);
  }

  getString(resource: string, name: string, fallback: unknown): unknown {
    const value = this.values.get(name);
    if (value === undefined || !this.canRead(resource, name)) return fallback;
    return value;
  }

  getInt(resource: string, name: string, fallback: unknown): unknown {
    const value = this.values.get(name);
    if (value === undefined || !this.canRead(resource, name)) return fallback;
    const parsed = parseConvarInt(value);
    return parsed ?? fallback;
  }

  getFloat(resource: string, name: string, fallback: unknown): unknown {
    const value = this.values.get(name);
    if (value === undefined || !this.canRead(resource, name)) return fallback;
    const match = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?/i.exec(value);
    return match ? Math.fround(Number(match[0])) : fallback;
  }
}

/** Lowercase, true/false → 1/0, then `std::stoi`: leading digits count, anything else fails. */
export function parseConvarInt(value: string): number | undefined {
  let v = value.toLowerCase();
  if (v === 'true') v = '1';
  else if (v === 'false') v = '0';
  const match = /^\s*[+-]?\d+/.exec(v);
  if (!match) return undefined;
  const n = Number(match[0]);
  // stoi throws out_of_range beyond int32, and the native then returns the default.
  return n > 2147483647 || n < -2147483648 ? undefined : n;
}
