import type { PlayerRecord } from './players';

/** How a connection ended: joined with a final id, refused with a reason, or given up. */
export type Decision =
  | { readonly admitted: true; readonly id: number }
  | { readonly admitted: false; readonly reason: string; readonly abandoned?: true };

interface DeferralState {
  done: boolean;
  rejected: boolean;
  message: string;
  description: string;
}

/**
 * One player's way through playerConnecting, mirroring ClientDeferral.cpp: deferral state per
 * resource, decisions made only after the event ran (`RanEvents`), first rejection wins, every
 * call after completion ignored, and no server-side timeout.
 */
export class Connection {
  /** Messages passed to `deferrals.update`, in order. */
  readonly updates: string[] = [];
  /** The combined progress text the client last saw (`<resource>: <message>` lines). */
  progress = '';
  /** Cards passed to `deferrals.presentCard`. */
  readonly cards: unknown[] = [];
  /** Handover data, merged. */
  readonly handover: Record<string, unknown> = {};
  readonly decision: Promise<Decision>;
  /**
   * True once every deferral is done and the server let the client in; false if refused or
   * given up. For a client that never loads this settles while `decision` never does.
   */
  readonly admission: Promise<boolean>;
  completed = false;
  private settle!: (d: Decision) => void;
  private settleAdmission!: (admitted: boolean) => void;
  private readonly states = new Map<string, DeferralState>();
  private ranEvents = false;
  private pending = false;
  /** setKickReason's text, or FXServer's default (InitConnectMethod.cpp, noReason). */
  kickReason = 'Resource prevented connection.';

  constructor(
    readonly record: PlayerRecord,
    private readonly onAdmit: (c: Connection) => void,
    private readonly onReject: (c: Connection) => void,
  ) {
    this.decision = new Promise((resolve) => {
      this.settle = resolve;
    });
    this.admission = new Promise((resolve) => {
      this.settleAdmission = resolve;
    });
  }

  get tempId(): number {
    return this.record.tempId;
  }

  defer(resource: string): void {
    if (this.completed) return;
    this.states.set(resource, {
      done: false,
      rejected: false,
      message: 'Deferring connection...',
      description: resource,
    });
    this.updateDeferrals();
  }

  update(resource: string, args: unknown[]): void {
    if (this.completed) return;
    // operator[] in ClientDeferral.cpp: an update without defer still creates a pending state.
    const state = this.stateOf(resource);
    if (args.length === 1 && typeof args[0] === 'string') {
      state.message = args[0];
      this.updates.push(args[0]);
      this.updateDeferrals();
    }
  }

  presentCard(resource: string, card: unknown): void {
    if (this.completed) return;
    this.stateOf(resource);
    this.cards.push(card);
  }

  done(resource: string, args: unknown[]): void {
    if (this.completed) return;
    const state = this.stateOf(resource);
    state.done = true;
    if (args.length === 1) {
      // A non-string (undefined packs as nil) rejects with "Unknown error".
      state.message = typeof args[0] === 'string' ? args[0] : 'Unknown error';
      state.rejected = true;
    }
    this.updateDeferrals();
  }

  addHandover(data: unknown): void {
    if (this.completed || !data || typeof data !== 'object') return;
    Object.assign(this.handover, data);
  }

  /** Called once playerConnecting returned; `canceled` is CancelEvent's verdict. */
  ranEventsWith(canceled: boolean): void {
    this.ranEvents = true;
    if (this.pending) {
      this.pending = false;
      this.updateDeferrals();
    }
    if (this.completed) return;
    if (canceled) {
      this.reject(this.kickReason);
      return;
    }
    if (this.states.size === 0) this.admit();
  }

  /** The player closed the game while waiting: later deferral calls are ignored. */
  abandon(): void {
    if (this.completed) return;
    this.completed = true;
    this.onReject(this);
    this.settleAdmission(false);
    this.settle({ admitted: false, reason: 'Connection abandoned', abandoned: true });
  }

  /**
   * A new connection came with this client's GUID (InitConnectMethod.cpp drops the old client,
   * "Reconnecting"): whatever state it was in, it is gone, and later deferral calls are ignored.
   */
  replace(): void {
    if (!this.completed) {
      this.completed = true;
      this.onReject(this);
      this.settleAdmission(false);
    }
    this.settle({ admitted: false, reason: 'Reconnecting', abandoned: true });
  }

  reject(reason: string): void {
    if (this.completed) return;
    this.completed = true;
    this.onReject(this);
    this.settleAdmission(false);
    this.settle({ admitted: false, reason });
  }

  joined(id: number): void {
    this.settle({ admitted: true, id });
  }

  private admit(): void {
    this.completed = true;
    this.settleAdmission(true);
    this.onAdmit(this);
  }

  private stateOf(resource: string): DeferralState {
    let state = this.states.get(resource);
    if (!state) {
      state = { done: false, rejected: false, message: '', description: '' };
      this.states.set(resource, state);
    }
    return state;
  }

  private updateDeferrals(): void {
    if (!this.ranEvents) {
      this.pending = true;
      return;
    }
    let allDone = true;
    let progress = '';
    for (const state of this.states.values()) {
      if (!state.done) {
        progress += `${state.description}: ${state.message}\n`;
        allDone = false;
      }
      if (state.rejected) {
        this.reject(state.message);
        return;
      }
    }
    if (allDone) {
      this.admit();
      return;
    }
    this.progress = progress;
  }
}
