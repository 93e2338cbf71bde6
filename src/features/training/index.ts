import type { RosterContext } from '../../kernel/context';
import { answerWithin } from '../../platform/answer-within';
import type { ExportingFeature } from '../exports/exporting-feature';
import { trainingReportHandle } from './handle';
import { trainingSide } from './training-side';

/**
 * The learning partner side: its exports answer emptily while training is off; with training
 * on, also its player tracking and the `link` command. Attached before the players feature: its
 * `playerJoining` handler must run before the roster's, which may emit an event and with it reset
 * `source`. It starts after the roster side (`rosterStarted`), so what it announces at start finds
 * the online players already registered.
 */
export function attachTraining(context: RosterContext): ExportingFeature {
  const { settings, logger, clock, config } = context;
  const training = trainingSide({ settings, logger, clock, roster: () => context });
  const { timeoutSeconds } = config.gate;
  context.handles.provide(trainingReportHandle, { lines: () => training.consoleLines() });
  return {
    ...(training.joinCheck ? { joinCheck: training.joinCheck } : {}),
    exports: training.exports,
    departmentsRead: (catalog) => training.departmentsLoaded(catalog),
    // `roster doctor` answers within gate.timeoutSeconds, however long the learning service takes.
    doctorLines: () =>
      answerWithin(training.doctorLines(), timeoutSeconds * 1000, clock, () => [
        `training: ✗ the learning service did not answer within ${timeoutSeconds} s.`,
      ]),
    rosterStarted: () => training.start(),
    stop: () => training.stop(),
  };
}
