import type { Logger } from '../core/ports';
import { fx } from './natives';

type Handler = (...args: unknown[]) => unknown;

/**
 * Registers exports, each as name → [handler, the answer when it fails]. Nothing throws across
 * the boundary and no rejection reaches the caller: one resource's mistake never breaks another.
 */
export function registerSafeExports(table: Record<string, [Handler, unknown]>, logger: Logger): void {
  for (const [name, [handler, empty]] of Object.entries(table)) {
    const failed = (error: unknown) => {
      logger.warn(`export ${name} failed: ${(error as Error)?.message ?? String(error)}`);
      return empty;
    };
    fx.exports(name, (...args: unknown[]) => {
      try {
        const answer = handler(...args);
        return answer instanceof Promise ? answer.catch(failed) : answer;
      } catch (error) {
        return failed(error);
      }
    });
  }
}
