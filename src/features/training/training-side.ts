import { checkAddress, type Settings } from '../../kernel/config';
import type { JoinCheck } from '../../kernel/join-check';
import { Schedule } from '../../kernel/schedule';
import { errorMessage } from '../../platform/error-message';
import { fx } from '../../platform/natives';
import type { Clock, Logger } from '../../platform/ports';
import type { CatalogIndex } from '../../roster/catalog-index';
import { rosterUserAgent } from '../../roster/client';
import type { ExportAnswers } from '../exports/fivem/safe-exports';
import { LearningApi } from './api/learning-api';
import { createLearningHttp } from './api/learning-http';
import { DepartmentRequirements, unmatchedDepartmentLine } from './department-requirements';
import { aliasFile } from './fivem/alias-file';
import { discordOf } from './fivem/discord-identifier';
import { registerLinkCommand } from './fivem/link-command';
import { type TrainingParts, type TrainingRoster, trainingExports } from './fivem/training-exports';
import { attachTrainingLifecycle, loadOnlineTrainingPlayers } from './fivem/training-lifecycle';
import { fivemTrainingEvents } from './fivem/training-publish';
import { previousAlias } from './org-alias';
import { trainingVerdict } from './training-check';
import { consoleLines, doctorLines } from './training-report';
import { TrainingRequests } from './training-requests';
import { TrainingService } from './training-service';

export interface TrainingDeps {
  settings: Settings;
  logger: Logger;
  clock: Clock;
  /** The roster side, for `isQualified` (department membership). */
  roster: () => TrainingRoster | null;
}

/** What the rest of the resource needs from the training side. */
export interface TrainingHandle {
  /** Present when `gate.requireCourses` is set and training is on. */
  joinCheck: JoinCheck | null;
  /** The training exports, answering emptily while training is off. */
  exports: ExportAnswers;
  /** `roster training` on the console. */
  consoleLines(): Promise<string[]>;
  /** Extra lines for `roster doctor`. */
  doctorLines(): Promise<string[]>;
  /** Called when the roster's departments are (re)loaded: names `departmentCourses` keys matching none. */
  departmentsLoaded(catalog: CatalogIndex): void;
  /** Called on `onResourceStart` (after the roster side started). */
  start(): void;
  /** Called on `onResourceStop`. */
  stop(): void;
}

const COURSES_REFRESH_MS = 30 * 60_000;
const KEY_RETRY_MS = 60_000;
const DEPARTMENTS_CHECK_MS = 60_000;
/** Completions older than this are re-read before a linked joining player is refused. */
const JOIN_RECHECK_MS = 30_000;

/** Why training is off, or `undefined` when it is on. */
function offReason(settings: Settings): string | undefined {
  if (!settings.config.training.enabled) return 'training.enabled is false';
  if (settings.trainingApiKey === undefined) return 'roster_training_api_key is not set';
  return undefined;
}

/**
 * The learning partner side: off unless `training.enabled` and `roster_training_api_key` are set.
 * Its exports exist either way; off, they give their empty answers and nothing else runs.
 */
export function trainingSide(deps: TrainingDeps): TrainingHandle {
  const { settings, logger, clock } = deps;
  const { config } = settings;
  let parts: TrainingParts | null = null;
  const answers = trainingExports({ training: () => parts, roster: deps.roster });

  const off = offReason(settings);
  if (off !== undefined || settings.trainingApiKey === undefined) {
    // Required courses with the training side off never get here: the settings refuse them.
    const line = `training checks are off (${off}).`;
    logger.info(line);
    return {
      joinCheck: null,
      exports: answers,
      consoleLines: async () => [line],
      doctorLines: async () => [`training: ${line}`],
      departmentsLoaded() {},
      start() {},
      stop() {},
    };
  }

  const baseUrl = checkAddress((config.training.baseUrl ?? '').trim(), 'training.baseUrl', []);
  const api = new LearningApi(
    createLearningHttp({
      baseUrl,
      apiKey: settings.trainingApiKey,
      userAgent: rosterUserAgent(__ROSTER_VERSION__),
      timeoutMs: config.api.timeoutMs,
      perMinute: config.training.perMinute,
      maxWaitMs: config.rateLimit.maxWaitSeconds * 1000,
      maxBodyBytes: config.training.maxBodyMB * 1024 * 1024,
      clock,
      logger,
    }),
  );
  const service = new TrainingService({ api, clock, logger, events: fivemTrainingEvents });
  const requirements = new DepartmentRequirements(config.training.departmentCourses, (key) =>
    logger.error(unmatchedDepartmentLine(key)),
  );
  parts = { service, requests: new TrainingRequests(service, requirements) };
  const readDepartments = (catalog: CatalogIndex | undefined) => {
    if (catalog && requirements.configured && catalog.departments.size > 0) requirements.resolve(catalog);
  };
  const schedule = new Schedule(clock);
  const resourcePath = fx.GetResourcePath(fx.GetCurrentResourceName());
  const memory = resourcePath ? aliasFile(resourcePath) : undefined;
  let previous: string | undefined;
  attachTrainingLifecycle(service);
  registerLinkCommand(service, logger, clock);

  const verify = async (): Promise<void> => {
    const identity = await service.verifyKey();
    if (!identity) {
      logger.error(`training: ${service.identityProblem} Retrying in ${KEY_RETRY_MS / 1000}s.`);
      schedule.once(KEY_RETRY_MS, () => void verify());
      return;
    }
    previous = await previousAlias(service, identity, memory);
    const org = identity.org.name ?? identity.org.alias ?? 'the organisation';
    logger.info(`training: connected to the learning service of "${org}".`);
    if (identity.flags.discord !== true)
      logger.warn(
        "training: the organisation's `discord` flag is off, so players cannot be matched; see `roster doctor`.",
      );
  };
  const begin = async (): Promise<void> => {
    await service.loadLayout();
    await verify();
    const loaded = await Promise.allSettled([service.loadCourses(), service.loadCompletions()]);
    for (const result of loaded)
      if (result.status === 'rejected') logger.warn(`training: ${errorMessage(result.reason)}`);
  };
  const report = () => {
    const catalog = deps.roster()?.catalog.index;
    return {
      service,
      config,
      baseUrl,
      previousAlias: previous,
      now: clock.now(),
      unmatchedDepartments:
        catalog && catalog.departments.size > 0 ? requirements.resolve(catalog).unmatched : undefined,
    };
  };

  const requireCourses = config.gate.requireCourses;
  const joinCheck: JoinCheck | null =
    requireCourses.length === 0
      ? null
      : ({ tempId, name, deadlineAt }) =>
          trainingVerdict(
            {
              service,
              requireCourses,
              onError: config.gate.onError,
              // What the roster lookup left of the gate's deadline.
              budgetMs: Math.max(100, deadlineAt - clock.now()),
              // Never staler than the background refresh would leave them.
              recheckAfterMs: Math.min(
                JOIN_RECHECK_MS,
                config.refresh.intervalSeconds * 1000 || JOIN_RECHECK_MS,
              ),
              clock,
              logger,
            },
            { discordId: discordOf(tempId), name },
          );

  return {
    joinCheck,
    exports: answers,
    consoleLines: async () => consoleLines(report()),
    async doctorLines() {
      await service.loadLayout();
      await service.verifyKey();
      await service.loadCourses().catch(() => {});
      return doctorLines(report());
    },
    departmentsLoaded: readDepartments,
    start() {
      loadOnlineTrainingPlayers(service);
      void begin();
      // Departments that first load late (through a join) are read here too, without a request.
      schedule.every(DEPARTMENTS_CHECK_MS, () => readDepartments(deps.roster()?.catalog.index));
      schedule.every(config.refresh.intervalSeconds * 1000, () => service.refreshOnline(), 0.1);
      schedule.every(COURSES_REFRESH_MS, () => service.loadCourses(), 0.1);
    },
    stop() {
      schedule.stop();
      void api.close();
    },
  };
}
