import type { JoinDecision } from '../../kernel/join-decision';
import { type JoinReason, joinReason, type RefusalTexts } from './join-reason';
import { MinuteCounts } from './minute-counts';
import type { RequestTotals } from './panel-metrics';
import { RingBuffer } from './ring-buffer';

/** The last decisions the page lists (a few hundred). */
export const RECENT_DECISIONS = 300;

export interface RecordedDecision extends JoinDecision {
  reason: JoinReason;
}

/**
 * What happens, noted as it happens with O(1) work and fixed memory: join decisions into a ring,
 * requests into per-minute slots. Everything the page shows is built from this on request.
 */
export class PanelRecorder {
  readonly decisions = new RingBuffer<RecordedDecision>(RECENT_DECISIONS);
  readonly minutes = new MinuteCounts(60);
  readonly totals: RequestTotals = { sent: 0, throttled: 0, unanswered: 0 };
  /** The service's last answer: its status, or null when none came. */
  lastAnswer: { at: number; status: number | null } | null = null;
  private readonly listeners: ((decision: RecordedDecision) => void)[] = [];

  constructor(private readonly texts: (decision: JoinDecision) => RefusalTexts) {}

  /** For the gate: never throws, so a panel fault cannot touch a join. */
  decided(decision: JoinDecision): void {
    try {
      const recorded: RecordedDecision = { ...decision, reason: joinReason(decision, this.texts(decision)) };
      this.decisions.push(recorded);
      for (const listener of this.listeners) listener(recorded);
    } catch {
      // The panel is an observer; losing one record is better than failing a join.
    }
  }

  /** For the roster client: every request sent, with its status or null when nothing came back. */
  answered(at: number, status: number | null): void {
    this.totals.sent++;
    if (status === 429) this.totals.throttled++;
    if (status === null) this.totals.unanswered++;
    this.minutes.add(at, status === 429);
    this.lastAnswer = { at, status };
  }

  onDecision(listener: (decision: RecordedDecision) => void): void {
    this.listeners.push(listener);
  }
}
