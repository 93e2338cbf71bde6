import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  FLEET_SERVER_FLAG,
  type FleetPlayer,
  type FleetSample,
  type FromFleetServer,
  type ToFleetServer,
} from './fleet-protocol';
import type { BenchPlayer } from './population';

/**
 * One fleet server as the parent sees it: the bench itself forked with `FLEET_SERVER_FLAG` (so
 * the built `.build/dev/bench.mjs` runs `runFleetServer`), driven over the IPC channel.
 */
export class FleetProcess {
  private readonly child: ChildProcess;
  private readonly waiters = new Map<FromFleetServer['kind'], (message: FromFleetServer) => void>();
  private readonly heard = new Map<FromFleetServer['kind'], FromFleetServer>();
  private failure: Error | null = null;
  private readonly failed: Promise<never>;

  constructor(readonly index: number) {
    // This module is bundled into .build/dev/bench.mjs: that file, run again, becomes the server.
    const script = fileURLToPath(import.meta.url);
    this.child = fork(script, [FLEET_SERVER_FLAG], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.failed = new Promise<never>((_, reject) => {
      const fail = (error: Error) => {
        this.failure ??= error;
        reject(this.failure);
      };
      this.child.on('message', (message: FromFleetServer) => {
        if (message.kind === 'failed') fail(new Error(`fleet server ${index} failed: ${message.message}`));
        this.heard.set(message.kind, message);
        this.waiters.get(message.kind)?.(message);
      });
      this.child.on('exit', (code) => {
        if (!this.heard.has('stopped')) fail(new Error(`fleet server ${index} exited (${code}) unasked`));
      });
    });
    this.failed.catch(() => {});
  }

  /** `database`: oxmysql's connection string, started before roster (sharing needs it). */
  start(url: string, apiKey: string, config: Record<string, unknown>, database?: string): void {
    this.send({ kind: 'start', index: this.index, url, apiKey, config, ...(database ? { database } : {}) });
  }

  /** The roster resource's log lines that contain `text`. */
  async lines(text: string): Promise<string[]> {
    const message = await this.ask({ kind: 'lines', text }, 'lines', 10_000);
    return message.kind === 'lines' ? message.lines : [];
  }

  /** One player connects now (and leaves at once when admitted): the decision and its times (epoch ms). */
  async join(player: BenchPlayer): Promise<{ admitted: boolean; connectAt: number; decidedAt: number }> {
    const message = await this.ask({ kind: 'join', player }, 'joined', 30_000);
    if (message.kind !== 'joined') throw new Error(`fleet server ${this.index}: no decision`);
    return { admitted: message.admitted, connectAt: message.connectAt, decidedAt: message.decidedAt };
  }

  /** What `roster status` prints. */
  async status(): Promise<string[]> {
    const message = await this.ask({ kind: 'status' }, 'status', 10_000);
    return message.kind === 'status' ? message.lines : [];
  }

  /** Epoch ms when the resource logged that it is connected to the roster. */
  async connected(timeoutMs: number): Promise<number> {
    const message = await this.next('connected', timeoutMs);
    return message.kind === 'connected' ? message.at : 0;
  }

  /** When the mirror's first read completed (epoch ms) and how many members it holds. */
  async mirror(timeoutMs: number): Promise<{ at: number; held: number }> {
    const message = await this.next('mirror', timeoutMs);
    return message.kind === 'mirror' ? { at: message.at, held: message.held } : { at: 0, held: 0 };
  }

  /** Connects `players` evenly over `spanMs` from `beginAt` (epoch ms); every decision once settled. */
  async storm(
    players: FleetPlayer[],
    beginAt: number,
    spanMs: number,
    giveUpMs: number,
  ): Promise<FleetSample[]> {
    const message = await this.ask(
      { kind: 'storm', players, beginAt, spanMs, giveUpMs },
      'storm-done',
      spanMs + giveUpMs + 60_000,
    );
    return message.kind === 'storm-done' ? message.samples : [];
  }

  /** Every player leaves the server. */
  async dropAll(): Promise<void> {
    await this.ask({ kind: 'drop' }, 'dropped', 10_000);
  }

  /** Whether the server's mirror holds the roster now. */
  async mirrorHolds(): Promise<boolean> {
    const message = await this.ask({ kind: 'holds' }, 'holds', 10_000);
    return message.kind === 'holds' && message.holds;
  }

  /** Stops the server; the process then exits by itself. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || !this.child.connected) return;
    this.send({ kind: 'stop' });
    await this.next('stopped', 10_000).catch(() => this.child.kill());
  }

  /**
   * Ends the process whatever it is doing (after a failure elsewhere); `SIGKILL` as a crash does,
   * the resource stopping nothing. The process exiting is then not a failure.
   */
  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.heard.set('stopped', { kind: 'stopped' });
    if (this.child.exitCode === null) this.child.kill(signal);
  }

  /** Sends `message` and waits for the next `reply` (not one heard before). */
  private ask(
    message: ToFleetServer,
    reply: FromFleetServer['kind'],
    timeoutMs: number,
  ): Promise<FromFleetServer> {
    this.heard.delete(reply);
    const answer = this.next(reply, timeoutMs);
    this.send(message);
    return answer;
  }

  private send(message: ToFleetServer): void {
    if (this.failure) throw this.failure;
    this.child.send(message);
  }

  private next(kind: FromFleetServer['kind'], timeoutMs: number): Promise<FromFleetServer> {
    const known = this.heard.get(kind);
    if (known) return Promise.resolve(known);
    const arrived = new Promise<FromFleetServer>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`fleet server ${this.index}: no ${kind} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.set(kind, (message) => {
        clearTimeout(timer);
        this.waiters.delete(kind);
        resolve(message);
      });
    });
    return Promise.race([arrived, this.failed]);
  }
}
