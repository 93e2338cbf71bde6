/** A console command registered by a resource (ResourceScriptFunctions.cpp, REGISTER_COMMAND). */
export interface Command {
  readonly name: string;
  readonly owner: string;
  readonly restricted: boolean;
  run(source: number, args: string[], raw: string): void;
}

export class CommandRegistry {
  private readonly commands = new Map<string, Command>();

  register(command: Command): void {
    this.commands.set(command.name.toLowerCase(), command);
  }

  find(name: string): Command | undefined {
    return this.commands.get(name.toLowerCase());
  }

  /** Stopping a resource unregisters its commands. */
  unregisterOwner(owner: string): void {
    for (const [name, command] of this.commands) if (command.owner === owner) this.commands.delete(name);
  }
}

/** Splits a command line like the console does: whitespace separated, double quotes group. */
export function splitCommandLine(raw: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) out.push(m[1] ?? m[2] ?? '');
  return out;
}
