import type { RosterService } from '../../roster/roster-service';
import type { RosterMirror } from './roster-mirror';

/**
 * The mirror plugged into the service: it hears the service's every answer (joins, refreshes, the
 * audit feed's re-reads), and the service finds members in it.
 */
export class MirrorAttachment {
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly service: Pick<RosterService, 'useMirror' | 'onAnswer'>,
    private readonly mirror: RosterMirror,
  ) {}

  /** Hears the service's answers and lets it find what is held; once. */
  attach(): void {
    if (this.unsubscribe !== null) return;
    this.unsubscribe = this.service.onAnswer((license, answer) => this.mirror.heard(license, answer));
    this.service.useMirror(this.mirror);
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.service.useMirror(null);
  }
}
