import { FRAME_MS, type LogEntry } from '../emulator';
import { SandboxMismatch } from './expectation';

/** The server console's lines as the emulator keeps them: the oldest go past a bound. */
export interface ConsoleLines {
  readonly entries: readonly LogEntry[];
}

/**
 * Follows the server console from now on, as FXServer's console window shows it: every line
 * printed after this is handed to `show`, looked for once a frame (and on `flush`).
 */
export class LogFollower {
  /** Lines shown so far. */
  shown = 0;
  /** When the newest of them was shown (performance.now()). */
  lastShownAt = 0;
  private last: LogEntry | undefined;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly log: ConsoleLines,
    private readonly show: (entry: LogEntry) => void,
  ) {
    this.last = log.entries.at(-1);
    this.timer = setInterval(() => this.flush(), FRAME_MS);
  }

  /** Shows the lines printed since the last look. */
  flush(): void {
    const { entries } = this.log;
    // Positions move as the oldest lines go, so the last line shown is found again by identity;
    // when it is gone itself, every line still kept came after it.
    const from = this.last === undefined ? 0 : entries.lastIndexOf(this.last) + 1;
    if (from >= entries.length) return;
    for (const entry of entries.slice(from)) this.show(entry);
    this.shown += entries.length - from;
    this.lastShownAt = performance.now();
    this.last = entries.at(-1);
  }

  stop(): void {
    this.flush();
    clearInterval(this.timer);
  }
}

/** A printed line as the server console shows it. */
export const consoleLine = ({ resource, text }: LogEntry): string => `[${resource}] ${text}`;

/**
 * The roster prints each answer in one go once it has it: two quiet frames after the first line
 * mean the answer is complete.
 */
const QUIET_MS = 2 * FRAME_MS;

/**
 * Waits for the answer to a command just run: until lines came and then two quiet frames, or
 * `firstLineMs` with none (a command that prints nothing, such as `set`). Returns whether any came.
 */
export async function answerPrinted(
  follower: LogFollower,
  since: number,
  firstLineMs: number,
): Promise<boolean> {
  const began = performance.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, FRAME_MS));
    follower.flush();
    const now = performance.now();
    if (follower.shown > since) {
      if (now - follower.lastShownAt >= QUIET_MS) return true;
    } else if (now - began >= firstLineMs) return false;
  }
}

/**
 * Runs `line` as the server console (as an owner types it) and returns what the console printed
 * for it; fails the run when nothing comes within `timeoutMs`.
 */
export async function consoleAnswer(
  server: { readonly log: ConsoleLines; executeCommand(line: string): void },
  line: string,
  timeoutMs = 10_000,
): Promise<LogEntry[]> {
  const printed: LogEntry[] = [];
  const follower = new LogFollower(server.log, (entry) => printed.push(entry));
  try {
    server.executeCommand(line);
    if (!(await answerPrinted(follower, 0, timeoutMs)))
      throw new SandboxMismatch(`\`${line}\` printed nothing within ${timeoutMs} ms`);
    return printed;
  } finally {
    follower.stop();
  }
}
