import type { LogSink } from './log-sink';
import { claimUnhandledRejections, nodeRejectionWarning } from './unhandled-rejections';

/** A resource realm as the rejection bookkeeping knows it. */
export interface RejectingRealm {
  readonly name: string;
  readonly realm: { readonly Promise: PromiseConstructor };
}

export interface UnhandledRejection {
  readonly resource: string;
  readonly reason: unknown;
}

/** Rejected, unhandled, at the moment a stopped realm's drain is over: later ones are not its. */
class DrainOver {
  constructor(
    readonly ledger: ResourceRejections,
    readonly realm: RejectingRealm,
  ) {}
}

/**
 * One server's unhandled rejections, by resource realm (see unhandled-rejections.ts). A stopped
 * resource's are reported while its microtask queue drains (FXServer's Destroy prints Node's
 * warning for them), not after: its code that still runs here would not run in FXServer at all.
 * Node reports rejections in the order they happened, once the microtasks are done, so a marker
 * rejected when the drain is over tells the ones before it from the ones after.
 */
export class ResourceRejections {
  readonly recorded: UnhandledRejection[] = [];
  // On each realm's Promise.prototype, so a rejection names its resource without the server
  // holding the realm.
  private readonly realmTag = Symbol('fxserver resource realm');
  private readonly silenced = new WeakSet<RejectingRealm>();
  private release: (() => void) | null = null;
  private draining = 0;
  private releaseWanted = false;

  constructor(private readonly log: LogSink) {}

  tag(realm: RejectingRealm): void {
    Object.defineProperty(realm.realm.Promise.prototype, this.realmTag, { value: realm });
  }

  listen(): void {
    this.releaseWanted = false;
    this.release ??= claimUnhandledRejections((reason, promise) => this.claim(reason, promise));
  }

  /** Stops taking rejections, once every stopped realm's drain was reported. */
  unlisten(): void {
    this.releaseWanted = true;
    if (this.draining === 0) this.releaseNow();
  }

  /** The realm stopped; call the function returned once its drain is over. */
  stopping(realm: RejectingRealm): () => void {
    if (!this.release) return () => this.silenced.add(realm);
    this.draining++;
    return () => {
      // Unhandled on purpose: Node reports it after every rejection of the drain.
      void Promise.reject(new DrainOver(this, realm));
    };
  }

  private claim(reason: unknown, promise: Promise<unknown>): boolean {
    if (reason instanceof DrainOver) {
      if (reason.ledger !== this) return false;
      this.silenced.add(reason.realm);
      this.draining--;
      if (this.releaseWanted && this.draining === 0) this.releaseNow();
      return true;
    }
    const realm = (promise as unknown as Record<symbol, RejectingRealm | undefined>)[this.realmTag];
    if (!realm) return false;
    if (this.silenced.has(realm)) return true;
    for (const line of nodeRejectionWarning(reason)) this.log.write(realm.name, line);
    this.recorded.push({ resource: realm.name, reason });
    if (this.recorded.length > 1000) this.recorded.splice(0, 500);
    return true;
  }

  private releaseNow(): void {
    this.release?.();
    this.release = null;
  }
}
