import { Handle } from '../../kernel/handle';

/** What the other features ask the training side (`roster training`, the panel's training section). */
export interface TrainingReportHandle {
  /** The lines of `roster training`. */
  lines(): Promise<string[]>;
}

/** Provided by the training feature when attached, training on or off; null when it is not. */
export const trainingReportHandle = new Handle<TrainingReportHandle>('the training report');
