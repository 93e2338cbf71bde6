import { errorMessage } from '../../platform/error-message';
import type { Clock } from '../../platform/ports';

export interface DoctorResult {
  at: number;
  ms: number;
  lines: string[];
}

/** Runs `roster doctor` for the panel: one run at a time, the last result kept for the page. */
export class DoctorRuns {
  last: DoctorResult | null = null;
  private running: Promise<DoctorResult> | null = null;

  constructor(
    private readonly doctor: () => Promise<string[]>,
    private readonly clock: Clock,
  ) {}

  get busy(): boolean {
    return this.running !== null;
  }

  /** Starts a run, or joins the one already going. */
  run(): Promise<DoctorResult> {
    if (this.running) return this.running;
    const began = this.clock.now();
    this.running = this.doctor()
      .catch((error: unknown) => [`✗ doctor failed: ${errorMessage(error)}`])
      .then((lines) => {
        const result = { at: began, ms: this.clock.now() - began, lines };
        this.last = result;
        return result;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
