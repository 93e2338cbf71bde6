/**
 * Convars as FXServer keeps them and scripts read them.
 *
 * Names are case-insensitive: the variable manager is a `std::map<std::string, Entry,
 * console::IgnoreCaseLess>` (citicore/console/Console.Variables.h), compared with `_stricmp`
 * (Console.Commands.h), so `set ROSTER_API_KEY x` and `GetConvar('roster_api_key')` meet, and a
 * second `set` in another case changes the same entry (Console.Variables.cpp, setCommand).
 *
 * `add_convar_permission <resource> read <convar>` is not: citizen-scripting-core/src/
 * ConsoleScriptFunctions.cpp keeps the convar in an `unordered_set<std::string>` and each grant in
 * an `unordered_map` keyed by the exact (resource name, convar) pair, and `CanReadConVar` looks up
 * the name exactly as the script passed it. So a restricted `roster_api_key` is refused to an
 * unlisted resource asking for `roster_api_key` (the default comes back), while one asking for
 * `ROSTER_API_KEY` is not restricted at all and reads the value.
 */
export class ConvarStore {
  private readonly values = new Map<string, string>();
  /** g_restrictedConVars: exact names. */
  private readonly restricted = new Set<string>();
  /** g_permissions: exact `resource\0convar` pairs. */
  private readonly grants = new Set<string>();

  set(name: string, value: string): void {
    this.values.set(foldCase(name), value);
  }

  raw(name: string): string | undefined {
    return this.values.get(foldCase(name));
  }

  addReadPermission(resource: string, convar: string): void {
    this.restricted.add(convar);
    this.grants.add(`${resource}\0${convar}`);
  }

  /** CanReadConVar: only a name listed exactly is restricted, and only an exact grant lifts it. */
  canRead(resource: string, name: string): boolean {
    return !this.restricted.has(name) || this.grants.has(`${resource}\0${name}`);
  }

  getString(resource: string, name: string, fallback: unknown): unknown {
    const value = this.raw(name);
    if (value === undefined || !this.canRead(resource, name)) return fallback;
    return value;
  }

  getInt(resource: string, name: string, fallback: unknown): unknown {
    const value = this.raw(name);
    if (value === undefined || !this.canRead(resource, name)) return fallback;
    const parsed = parseConvarInt(value);
    return parsed ?? fallback;
  }

  getFloat(resource: string, name: string, fallback: unknown): unknown {
    const value = this.raw(name);
    if (value === undefined || !this.canRead(resource, name)) return fallback;
    const match = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?/i.exec(value);
    return match ? Math.fround(Number(match[0])) : fallback;
  }
}

/** `_stricmp` folds ASCII letters only. */
function foldCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => c.toLowerCase());
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
