import type { Feature } from '../../kernel/feature';
import type { ExportAnswers } from './fivem/safe-exports';

/** A feature that answers some of the documented exports, beside its hooks. */
export interface ExportingFeature extends Feature {
  /** The documented exports this feature answers; the resource registers every one once. */
  exports?: ExportAnswers;
}

/** Every feature's export answers, in list order; an export two answer is the first one's. */
export function exportAnswers(features: readonly ExportingFeature[]): ExportAnswers {
  const answers: ExportAnswers = {};
  for (const feature of [...features].reverse()) Object.assign(answers, feature.exports);
  return answers;
}
