import { errorMessage } from '../../../platform/error-message';
import { fx } from '../../../platform/natives';
import type { Logger } from '../../../platform/ports';
import { DOCUMENTED_EXPORTS, type ExportName } from '../documented-exports';

type Handler = (...args: unknown[]) => unknown;

/** What answers some of the exports: name → [handler, the answer when it fails]. */
export type ExportAnswers = { [Name in ExportName]?: [Handler, unknown] };

/**
 * Registers every documented export with FXServer, once each, the same list whether the resource
 * runs or fails closed: one with an entry in `answers` calls its handler, any other gives its
 * empty answer. Nothing throws across the boundary and no rejection reaches the caller: one
 * resource's mistake never breaks another.
 */
export function registerExports(answers: ExportAnswers, logger: Logger): void {
  for (const name of Object.keys(DOCUMENTED_EXPORTS) as ExportName[]) {
    const declared: { empty: unknown; async?: true } = DOCUMENTED_EXPORTS[name];
    const answer = answers[name];
    fx.exports(name, answer ? safely(name, answer, logger) : emptyAnswer(declared));
  }
}

function emptyAnswer({ empty, async }: { empty: unknown; async?: true }): Handler {
  return async ? () => Promise.resolve(empty) : () => empty;
}

function safely(name: string, [handler, whenFailed]: [Handler, unknown], logger: Logger): Handler {
  const failed = (error: unknown) => {
    logger.warn(`export ${name} failed: ${errorMessage(error)}`);
    return whenFailed;
  };
  return (...args: unknown[]) => {
    try {
      const answer = handler(...args);
      return answer instanceof Promise ? answer.catch(failed) : answer;
    } catch (error) {
      return failed(error);
    }
  };
}
