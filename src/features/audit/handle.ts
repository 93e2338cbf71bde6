import { Handle } from '../../kernel/handle';
import type { AuditFeed } from './audit-feed';

/**
 * The audit feed, for the features that follow it (the roster mirror) or tell how it runs (the
 * daily budget). Provided once it starts, when the key is verified with `audit:read`, and
 * announced by the `auditFeedStarted` hook; null while it does not run.
 */
export const auditFeedHandle = new Handle<AuditFeed>('the audit feed');
