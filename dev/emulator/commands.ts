/** A console command registered by a resource (ResourceScriptFunctions.cpp, REGISTER_COMMAND). */
export interface Command {
  readonly name: string;
  readonly owner: string;
  readonly restricted: boolean;
  run(source: number, args: string[], raw: string): void;
}

export class CommandRegistry {
  private readonly commands = new Map<string, Command>();
  // REGISTER_COMMAND keeps the latest handler per name (`outerRefs[commandName]`) before it
  // checks HasCommand: registering a taken name swaps the handler and changes nothing else.
  private readonly handlers = new Map<string, Command['run']>();

  /** false when the name was taken: only the handler changed (owner and ACEs stay). */
  register(command: Command): boolean {
    const key = command.name.toLowerCase();
    this.handlers.set(key, command.run);
    if (this.commands.has(key)) return false;
    this.commands.set(key, {
      name: command.name,
      owner: command.owner,
      restricted: command.restricted,
      run: (source, args, raw) => this.handlers.get(key)?.(source, args, raw),
    });
    return true;
  }

  find(name: string): Command | undefined {
    return this.commands.get(name.toLowerCase());
  }

  /** Stopping a resource unregisters its commands; returns their names. */
  unregisterOwner(owner: string): string[] {
    const gone: string[] = [];
    for (const [key, command] of this.commands) {
      if (command.owner !== owner) continue;
      this.commands.delete(key);
      gone.push(command.name);
    }
    return gone;
  }
}

/**
 * Splits a command line like console::Tokenize (citicore/console/Console.cpp): whitespace
 * separated, double quotes group, and an unquoted `#` or `//` at the start of a word ends the line.
 */
export function splitCommandLine(raw: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"?|([^\s"]+)/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    if (m[2] !== undefined && (m[2].startsWith('#') || m[2].startsWith('//'))) break;
    out.push(m[1] ?? m[2] ?? '');
  }
  return out;
}
