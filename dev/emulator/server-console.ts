import type { AccessType, AceStore } from './aces';
import { type CommandRegistry, splitCommandLine } from './commands';
import type { ConvarStore } from './convars';
import type { LogSink } from './log-sink';

/** What the console needs from the server. */
export interface ConsoleHost {
  readonly aces: AceStore;
  readonly commands: CommandRegistry;
  readonly convars: ConvarStore;
  readonly log: LogSink;
  /** A player's principals (PrincipalSource), or null when no such player. */
  playerPrincipals(source: number): string[] | null;
  hasResource(name: string): boolean;
  stopResource(name: string): void;
  restartResource(name: string): void;
}

type Builtin = { readonly arity?: number; run(args: string[]): void };

/**
 * FXServer's console: every command, built-in or a resource's, first needs the ACE
 * `command.<name>` for whoever runs it (citicore/console/Console.Commands.cpp InvokeDirect:
 * "No such command …" is printed only for local callers, then "Access denied for command …").
 * Who runs it is the principal stack (se/Security.cpp): the console is `system.console`
 * (GameServer.cpp, ServerInstance.cpp), a player their principals (Client.h), a resource's
 * `ExecuteCommand` `resource.<name>` (ResourceScriptFunctions.cpp EXECUTE_COMMAND).
 */
export class ServerConsole {
  private readonly builtins: Record<string, Builtin>;

  constructor(private readonly host: ConsoleHost) {
    this.builtins = this.createBuiltins();
  }

  /** `principal` set: a resource's ExecuteCommand; else source 0 is the console, N a player. */
  execute(raw: string, source = 0, principal?: string): void {
    const { aces } = this.host;
    if (principal !== undefined) {
      aces.runAs([principal], () => this.invoke(raw, ''));
      return;
    }
    if (source === 0) {
      aces.runAs(['system.console'], () => this.invoke(raw, ''));
      return;
    }
    const principals = this.host.playerPrincipals(source);
    if (principals) aces.runAs(principals, () => this.invoke(raw, String(source)));
  }

  /**
   * REGISTER_COMMAND's OnStop: the commands go, and with them the ACEs it added, removed by
   * (principal, object, type), so a matching `add_ace builtin.everyone command.<name> allow`
   * from server.cfg goes too (ResourceScriptFunctions.cpp).
   */
  resourceStopped(resource: string): void {
    for (const name of this.host.commands.unregisterOwner(resource)) {
      this.host.aces.removeAce('builtin.everyone', `command.${name}`, 'allow');
      this.host.aces.removeAce(`resource.${resource}`, `command.${name}`, 'allow');
    }
  }

  /** ConsoleCommandManager::Invoke with an execution context ('' = local, else the player id). */
  private invoke(raw: string, context: string): void {
    const [name, ...args] = splitCommandLine(raw);
    if (!name) return;
    const builtin = Object.hasOwn(this.builtins, name.toLowerCase())
      ? this.builtins[name.toLowerCase()]
      : undefined;
    const command = builtin ? undefined : this.host.commands.find(name);
    if (!builtin && !command) {
      if (context === '') this.print(`No such command ${name}.`);
      return;
    }
    if (!this.host.aces.checkCurrent(`command.${name}`)) {
      this.print(`Access denied for command ${name}.`);
      return;
    }
    if (builtin) {
      // ConsoleCommand with typed arguments (Console.Commands.h): the count must match.
      if (builtin.arity !== undefined && args.length !== builtin.arity) {
        this.print(`Argument count mismatch (passed ${args.length}, wanted ${builtin.arity})`);
        return;
      }
      builtin.run(args);
      return;
    }
    command!.run(context === '' ? 0 : Number(context), args, raw);
  }

  private print(line: string): void {
    this.host.log.write('server', line);
  }

  private printAll(lines: readonly string[]): void {
    for (const line of lines) this.print(line);
  }

  private createBuiltins(): Record<string, Builtin> {
    const { aces, convars } = this.host;
    // Console.Variables.cpp: set/setr/sets take (variable, value), case-insensitive names (convars.ts).
    const set: Builtin = { arity: 2, run: ([a = '', b = '']) => convars.set(a, b) };
    // se/Security.cpp add_ace / remove_ace: the type must be spelled allow or deny, and no caller
    // may change the access of a principal it runs as.
    const aceChange =
      (apply: (p: string, o: string, t: AccessType) => void): Builtin['run'] =>
      ([principal = '', object = '', type = '']) => {
        if (type !== 'allow' && type !== 'deny') {
          this.print("Access type needs to be 'allow' or 'deny'.");
          return;
        }
        if (aces.onStack(principal)) {
          this.print('Changing ones own access is not permitted.');
          return;
        }
        apply(principal, object, type);
      };
    return {
      set,
      setr: set,
      sets: set,
      add_ace: { arity: 3, run: aceChange((p, o, t) => aces.addAce(p, o, t)) },
      remove_ace: { arity: 3, run: aceChange((p, o, t) => aces.removeAce(p, o, t)) },
      add_principal: { arity: 2, run: ([c = '', p = '']) => aces.addPrincipal(c, p) },
      remove_principal: { arity: 2, run: ([c = '', p = '']) => aces.removePrincipal(c, p) },
      test_ace: {
        arity: 2,
        run: ([p = '', o = '']) => this.print(`${p} -> ${o} = ${aces.checkPrincipal(p, o)}`),
      },
      list_aces: { arity: 0, run: () => this.printAll(aces.listAces()) },
      list_principals: { arity: 0, run: () => this.printAll(aces.listPrincipals()) },
      // add_convar_permission <resource> read <convar> (ConsoleScriptFunctions.cpp): three
      // arguments, the operation spelled exactly `read`, names kept exactly as typed.
      add_convar_permission: {
        arity: 3,
        run: ([a = '', b = '', c = '']) => b === 'read' && convars.addReadPermission(a, c),
      },
      stop: { run: ([a = '']) => this.host.stopResource(a) },
      restart: { run: ([a = '']) => this.host.hasResource(a) && this.host.restartResource(a) },
      ensure: { run: ([a = '']) => this.host.hasResource(a) && this.host.restartResource(a) },
    };
  }
}

/** server.cfg text as console lines: one command a line; blank and comment lines do nothing. */
export function cfgLines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => splitCommandLine(line).length > 0);
}
