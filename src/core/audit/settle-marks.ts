/**
 * When entries can no longer appear below a stamp, measured on this server's clock as elapsed time
 * only (never compared with the service's stamps). An entry commits at most the overlap after one
 * stamped later was listed; so once `overlapMs` passed since the feed had listed an entry stamped
 * after `confirmed`, every entry up to `confirmed` was visible to the reads since.
 */
export class SettleMarks {
  private readonly marks: { at: number; confirmed: number }[] = [];

  constructor(private readonly overlapMs: number) {}

  /** At this server's time `at`, entries stamped after `confirmed` (service time) had been listed. */
  note(at: number, confirmed: number): void {
    const last = this.marks.at(-1);
    if (last && last.confirmed >= confirmed) return;
    this.marks.push({ at, confirmed });
  }

  /**
   * The newest stamp settled for a sweep that started at `sweepAt` (this server's time) and read
   * through to the end: entries up to it were visible to that sweep. Undefined when none yet.
   */
  settledFor(sweepAt: number): number | undefined {
    let settled: number | undefined;
    while (this.marks.length > 0 && this.marks[0]!.at <= sweepAt - this.overlapMs) {
      settled = this.marks.shift()!.confirmed;
    }
    return settled;
  }

  clear(): void {
    this.marks.length = 0;
  }

  get size(): number {
    return this.marks.length;
  }
}
