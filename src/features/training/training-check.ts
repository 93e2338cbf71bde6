import type { Config } from '../../kernel/config';
import { errorMessage } from '../../platform/error-message';
import type { Clock, Logger, TimerHandle } from '../../platform/ports';
import { CourseIndex } from './course-index';
import { trainingMessages as say } from './training-messages';
import { courseNamesForPlayers, missingCourses } from './training-of';
import type { TrainingService } from './training-service';

export interface TrainingCheckDeps {
  service: TrainingService;
  requireCourses: readonly string[];
  onError: Config['gate']['onError'];
  /** The longest the check may take; past it the outage policy decides. */
  budgetMs: number;
  /** Completions older than this are re-read before a linked player is refused. */
  recheckAfterMs: number;
  clock: Clock;
  logger: Logger;
}

/** A refusal message, or `undefined` to admit. */
export type JoinVerdict = string | undefined;

/**
 * Decides whether a joining player has the required training. An outage never refuses anyone as
 * "not trained": it follows `gate.onError` (cached data decides; allow; deny).
 */
export async function trainingVerdict(
  deps: TrainingCheckDeps,
  player: { discordId: string | null; name: string },
): Promise<JoinVerdict> {
  const { discordId } = player;
  if (discordId === null) return say.noDiscord;
  let timer: TimerHandle | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = deps.clock.setTimeout(() => resolve('deadline'), deps.budgetMs);
  });
  try {
    const verdict = await Promise.race([online(deps, discordId, player.name), deadline]);
    if (verdict !== 'deadline') return verdict;
    deps.logger.warn(`training: no answer for ${player.name || discordId} within ${deps.budgetMs} ms.`);
  } catch (error) {
    deps.logger.warn(`training: could not check ${player.name || discordId}: ${errorMessage(error)}`);
  } finally {
    if (timer !== undefined) deps.clock.clearTimeout(timer);
  }
  return onOutage(deps, discordId);
}

/** The decision with the service answering; throws when it cannot. */
async function online(deps: TrainingCheckDeps, discordId: string, name: string): Promise<JoinVerdict> {
  const { service } = deps;
  const wasLinked = service.knownLink(discordId, true)?.linked === true;
  let link = await service.lookupLink(discordId, 'join');
  if (!link.linked) {
    const reply = await service.linkCodes.request(discordId, name, 'join').catch(() => undefined);
    if (reply === undefined) return say.notLinkedNoCode;
    if (!reply.alreadyLinked)
      return say.notLinked(say.linkCode(reply.code, reply.confirmUrl, reply.expiresAt));
    link = { linked: true, userSub: reply.userSub };
    service.rememberLink(discordId, link);
  }
  if (service.courses === undefined) await service.loadCourses('join').catch(() => {});
  // A link new to us means the completion list read before it cannot hold this player's completions.
  const stale = !wasLinked || (service.completionsAt ?? 0) < deps.clock.now() - deps.recheckAfterMs;
  if (!service.hasCompletions || (stale && missing(deps, discordId).length > 0)) {
    try {
      await service.loadCompletions('join');
    } catch (error) {
      if (!service.hasCompletions) throw error;
      // Known completions, however old, still decide only under the `cached` policy.
      if (deps.onError !== 'cached') throw error;
    }
  }
  const verdict = verdictFor(deps, discordId);
  if (verdict === null) throw new Error('the course list could not be read');
  return verdict;
}

function missing(deps: TrainingCheckDeps, discordId: string): string[] {
  const { service } = deps;
  return missingCourses(
    deps.requireCourses,
    service.completionsOf(discordId) ?? [],
    service.courses ?? new CourseIndex([]),
  );
}

/** The verdict from what is known; `null` when it cannot be told (titles but no course list). */
function verdictFor(deps: TrainingCheckDeps, discordId: string): JoinVerdict | null {
  const lacking = missing(deps, discordId);
  if (lacking.length === 0) return undefined;
  if (deps.service.courses === undefined) return null;
  return say.notTrained(courseNamesForPlayers(lacking, deps.service.courses ?? new CourseIndex([])));
}

/** `gate.onError` when the learning service cannot answer. */
function onOutage(deps: TrainingCheckDeps, discordId: string): JoinVerdict {
  if (deps.onError === 'allow') return undefined;
  if (deps.onError === 'deny') return say.unavailable;
  const link = deps.service.knownLink(discordId, true);
  if (!link?.linked || !deps.service.hasCompletions) return say.unavailable;
  const verdict = verdictFor(deps, discordId);
  return verdict === null ? say.unavailable : verdict;
}
