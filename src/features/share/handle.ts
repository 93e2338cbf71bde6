import { Handle } from '../../kernel/handle';
import type { ShareReport } from './share-report';

/** What the panel asks of the shared roster. */
export interface ShareHandle {
  report(): ShareReport;
}

/** Provided by the sharing feature when `share.enabled`; null otherwise. */
export const shareHandle = new Handle<ShareHandle>('the shared roster');
