import { clearLine, createInterface, cursorTo, type Interface } from 'node:readline';
import type { FxServer, LogEntry } from '../emulator';
import { describe, type RosterExports } from './answers';
import { answerPrinted, consoleLine, LogFollower } from './log-follower';

/** Where the owner's console commands come from. */
export interface ConsoleSource {
  input: NodeJS.ReadableStream;
  /**
   * The terminal, when `input` is one: a prompt with line editing and history, the server's own
   * lines printed above it. Without one (CI, a pipe, a file) the commands are read line by line
   * until the input ends, each answer awaited before the next.
   */
  terminal?: NodeJS.WriteStream;
}

export interface ConsoleDeps {
  server: FxServer;
  /** The exports as another resource sees them (for `players`). */
  roster: RosterExports;
  /** Where the console's lines go without a terminal. */
  print: (line: string) => void;
}

/**
 * How long a command read from a pipe may take to print its first line before the next is run.
 * Every roster check answers within `gate.timeoutSeconds` (10 s in the sandbox).
 */
const FIRST_LINE_MS = 12_000;

/** Words offered on Tab, most typed first. */
const COMPLETIONS = [
  'roster status',
  'roster doctor',
  'roster lookup ',
  'roster refresh all',
  'roster training',
  'rank promote ',
  'rank demote ',
  'rank set ',
  'hours ',
  'players',
  'help',
  'exit',
];

export const CONSOLE_HELP = [
  'Commands run as the server console (system.console), as typed into FXServer:',
  '  roster status | doctor | lookup <id|license:…> | refresh [id|all] | training',
  '  rank promote <id> [department] | rank demote <id> [department] | rank set <id> <department> <rank>',
  '  hours <id>',
  '  any other console command: list_principals, test_ace <principal> <ace>, add_ace …',
  "The sandbox's own:",
  '  players   who is online: server id, name and what the roster says of them',
  '  help      this list',
  '  exit      stop the sandbox (also Ctrl+D, Ctrl+C)',
];

/**
 * The server console, for the owner to type into once the scripted session is done: each line
 * runs as a console command, and every line the server prints from now on is shown (`[roster] …`),
 * the answers and whatever the resources print meanwhile.
 */
export async function runConsole(source: ConsoleSource, deps: ConsoleDeps): Promise<void> {
  if (source.terminal) await promptLoop(source.input, source.terminal, deps);
  else await pipedLoop(source.input, deps);
}

type Outcome = 'sent' | 'answered' | 'exit';

/** Runs one typed line: the sandbox's own commands here, everything else on the server console. */
function runLine(line: string, deps: ConsoleDeps, show: (line: string) => void): Outcome {
  const [word = ''] = line.split(/\s+/, 1);
  switch (word.toLowerCase()) {
    case 'exit':
    case 'quit':
      return 'exit';
    case 'help':
      for (const text of CONSOLE_HELP) show(text);
      return 'answered';
    case 'players':
      for (const text of playerLines(deps)) show(text);
      return 'answered';
    default:
      deps.server.executeCommand(line);
      return 'sent';
  }
}

function playerLines({ server, roster }: ConsoleDeps): string[] {
  const online = server.playerList();
  if (online.length === 0) return ['no player is online'];
  return online.map(({ id, name }) => {
    const member = roster.getMember(id);
    return `${String(id).padStart(4)}  ${name.padEnd(10)} ${member ? describe(member) : 'no roster data (not a member, or not loaded)'}`;
  });
}

/** A terminal: a prompt that stays at the bottom, the server's lines printed above it. */
function promptLoop(
  input: NodeJS.ReadableStream,
  terminal: NodeJS.WriteStream,
  deps: ConsoleDeps,
): Promise<void> {
  const rl: Interface = createInterface({
    input,
    output: terminal,
    prompt: '> ',
    terminal: true,
    historySize: 200,
    completer: (typed: string) => [COMPLETIONS.filter((c) => c.startsWith(typed)), typed],
  });
  // Clear the prompt line, print, then draw the prompt again with what was being typed.
  const show = (line: string) => {
    clearLine(terminal, 0);
    cursorTo(terminal, 0);
    terminal.write(`${line}\n`);
    rl.prompt(true);
  };
  const follower = new LogFollower(deps.server.log, (entry: LogEntry) => show(consoleLine(entry)));
  show('-- console: type a server console command (`help` lists them; `exit` or Ctrl+D stops) --');
  return new Promise((resolve) => {
    rl.on('line', (typed) => {
      const line = typed.trim();
      if (line !== '' && runLine(line, deps, show) === 'exit') rl.close();
      else rl.prompt();
    });
    rl.on('SIGINT', () => rl.close());
    rl.on('close', () => {
      follower.stop();
      terminal.write('\n');
      resolve();
    });
  });
}

/** No terminal: the commands are read one a line, each answer shown before the next runs. */
async function pipedLoop(input: NodeJS.ReadableStream, deps: ConsoleDeps): Promise<void> {
  const { print } = deps;
  print('-- console: commands from stdin (not a terminal), one a line --');
  const follower = new LogFollower(deps.server.log, (entry) => print(consoleLine(entry)));
  let count = 0;
  try {
    for await (const typed of createInterface({
      input,
      terminal: false,
      crlfDelay: Number.POSITIVE_INFINITY,
    })) {
      const line = typed.trim();
      if (line === '' || line.startsWith('#')) continue;
      count++;
      print(`> ${line}`);
      const before = follower.shown;
      const outcome = runLine(line, deps, print);
      if (outcome === 'exit') break;
      if (outcome === 'sent') await answerPrinted(follower, before, FIRST_LINE_MS);
    }
  } finally {
    follower.stop();
  }
  print(`console: ${count} command(s) read from stdin`);
}
