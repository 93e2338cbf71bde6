import type { Settings } from '../core/config';
import type { Clock, Logger } from '../core/ports';
import type { RosterService } from '../core/roster/roster-service';
import type { JoinCheck } from '../fivem/gate';

export interface TrainingDeps {
  settings: Settings;
  logger: Logger;
  clock: Clock;
  /** The roster side, for `isQualified` (department membership). */
  roster: () => RosterService | null;
}

/** What the rest of the resource needs from the training side. */
export interface TrainingHandle {
  /** Present when `gate.requireCourses` is set. */
  joinCheck: JoinCheck | null;
  /** `roster training` on the console. */
  consoleLines(): Promise<string[]>;
  /** Extra lines for `roster doctor`. */
  doctorLines(): Promise<string[]>;
  /** Called on `onResourceStart` (after the roster side started). */
  start(): void;
  /** Called on `onResourceStop`. */
  stop(): void;
}

/** The learning partner side: off unless `training.enabled` and `roster_training_api_key` are set. */
export function attachTraining(deps: TrainingDeps): TrainingHandle {
  const enabled = deps.settings.config.training.enabled && deps.settings.trainingApiKey !== undefined;
  deps.logger.info(enabled ? 'training checks are not available in this build.' : 'training checks are off.');
  return {
    joinCheck: null,
    consoleLines: async () => ['training checks are off.'],
    doctorLines: async () => [],
    start() {},
    stop() {},
  };
}
