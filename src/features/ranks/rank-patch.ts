import type { Lane } from '../../http';
import { errorMessage } from '../../platform/error-message';
import type { Logger } from '../../platform/ports';
import type { RosterCatalog } from '../../roster/catalog';
import { assignmentRoute } from '../../roster/client';
import { assignmentSchema } from '../../roster/client/record-schemas';
import type { MemberView } from '../../roster/member-view';
import type { ApiRank, Department, Rank } from '../../roster/model';
import type { OnlinePlayers } from '../../roster/online-players';
import type { RankActor, RankChange, RankChangeResult } from './rank-change';
import { rankChangeFailure, scopeNamed } from './rank-change-failure';
import { waitText } from './rank-change-limits';

/** Writes are refused rather than queued when the rate limiter would hold them longer than this. */
export const MAX_WAIT_MS = 10_000;

export interface RankPatchDeps {
  catalog: RosterCatalog;
  online: Pick<OnlinePlayers, 'recordRank'>;
  api: {
    patch(path: string, body: unknown, lane: Lane): Promise<unknown>;
    estimateWaitMs(lane: Lane): number;
  };
  /** A confirmed change: log line, rank-changes.log, `roster:rankChanged`. */
  changed: (change: RankChange) => void;
  logger: Logger;
  /** A change of this member is being sent (the per-member budget). */
  countTarget: (memberId: string) => void;
  /** The service named the write scope it wants. */
  scopeNamed: (scope: string) => void;
  /** The target's record turned out stale: read it again in the background. */
  reread: (src: string) => void;
}

/** A change decided on the roster's current data, ready to send. */
export interface DecidedChange {
  target: string;
  view: MemberView;
  department: Department;
  assignmentId: string;
  /** The target's rank on the roster now. */
  from: Rank | null;
  wanted: ApiRank;
  actor: RankActor;
}

/**
 * Sends the PATCH in the write lane and records what the service confirmed: the cache and the
 * exports at once, then the log, the console and `roster:rankChanged`. A failure becomes a reason
 * a person understands.
 */
export async function sendRankChange(deps: RankPatchDeps, c: DecidedChange): Promise<RankChangeResult> {
  const { api, catalog, online, logger } = deps;
  const label = c.department.shortName ?? c.department.name;
  const name = c.view.member.name;
  // The read may have taken the write lane's last request of the day: never queue the PATCH
  // behind that (a supervisor waits in chat), refuse it the same way.
  const waitMs = api.estimateWaitMs('write');
  if (waitMs > MAX_WAIT_MS) return { ok: false, reason: budgetText(waitMs) };
  deps.countTarget(c.view.member.id);
  let answer: unknown;
  try {
    answer = await api.patch(assignmentRoute(c.assignmentId), { rankId: c.wanted.id }, 'write');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'insufficient_scope') {
      deps.scopeNamed(scopeNamed((error as { serviceMessage?: string }).serviceMessage ?? '') ?? 'write');
    }
    if (code === 'not_found') deps.reread(c.target);
    logger.warn(`rank change for ${name} in ${label} failed: ${errorMessage(error)}`);
    return {
      ok: false,
      reason: rankChangeFailure(error, { target: name, department: label, rank: c.wanted.name }),
    };
  }
  const confirmed = confirmedRank(catalog, answer, c.department.id, c.wanted);
  const member = online.recordRank(c.target, c.department.id, confirmed);
  if (member === null)
    return { ok: false, reason: `${name} left before the change was confirmed; it was made.` };
  const now = member.departments.find((d) => d.id === c.department.id) ?? c.department;
  const change: RankChange = {
    target: { src: c.target, name: member.name, memberId: member.id },
    department: now,
    from: c.from,
    to: now.rank ?? toRank(confirmed),
    actor: c.actor,
  };
  deps.changed(change);
  return { ok: true, member, change };
}

/** The rank the service's answer shows; the rank asked for when the answer does not say. */
function confirmedRank(
  catalog: RosterCatalog,
  answer: unknown,
  departmentId: string,
  wanted: ApiRank,
): ApiRank {
  const parsed = assignmentSchema.safeParse(answer);
  if (!parsed.success) return wanted;
  const rankId = parsed.data.rankId;
  if (rankId === null || rankId === wanted.id) return wanted;
  const rank = parsed.data.rank ?? catalog.index.rank(rankId);
  return rank && (rank.departmentId ?? departmentId) === departmentId ? rank : wanted;
}

/** A refusal while the rate limiter would hold a write: joins keep what is left. */
export function budgetText(waitMs: number): string {
  return `The roster's requests are kept for joining players right now; try again in about ${waitText(waitMs)}.`;
}

export function toRank(rank: ApiRank): Rank {
  return { id: rank.id, name: rank.name, position: rank.position };
}
