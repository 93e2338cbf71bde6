import type { MemberResolver } from '../../roster/member-resolver';
import type { RosterMirror } from './roster-mirror';

/**
 * The mirror plugged into the member resolver: it hears the service's every answer (joins,
 * refreshes, the audit feed's re-reads), and the resolver finds members in it.
 */
export class MirrorAttachment {
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly members: Pick<MemberResolver, 'useMirror' | 'onAnswer'>,
    private readonly mirror: RosterMirror,
  ) {}

  /** Hears the service's answers and lets it find what is held; once. */
  attach(): void {
    if (this.unsubscribe !== null) return;
    this.unsubscribe = this.members.onAnswer((license, answer) => this.mirror.heard(license, answer));
    this.members.useMirror(this.mirror);
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.members.useMirror(null);
  }
}
