import type { Lane } from '../../http';
import { errorMessage } from '../../platform/error-message';
import type { Logger } from '../../platform/ports';
import type { RosterCatalog } from '../../roster/catalog';
import type { RankOrder } from '../../roster/catalog-index';
import type { QueryValues } from '../../roster/client/roster-api';
import type { MemberView } from '../../roster/member-view';
import type { ApiRank, Department } from '../../roster/model';
import type { OnlinePlayers } from '../../roster/online-players';
import type { PlayerRegistry } from '../../roster/player-registry';
import { type FreshAssignments, heldRank, readFreshAssignments } from './fresh-assignments';
import { type Acting, actingFor } from './rank-actor';
import { actorRefusal } from './rank-authority';
import { type RankChange, type RankChangeResult, refuse } from './rank-change';
import { rankChangeFailure } from './rank-change-failure';
import { limitText, RankChangeLimits } from './rank-change-limits';
import { type Choice, namedChoice, stepChoice } from './rank-choice';
import { budgetText, MAX_WAIT_MS, sendRankChange } from './rank-patch';
import { findTarget, type Target } from './rank-target';
import { WriteScope } from './write-scope';

export type { RankActor, RankChange, RankChangeResult } from './rank-change';

export interface RankChangeDeps {
  catalog: RosterCatalog;
  online: Pick<OnlinePlayers, 'recordRank' | 'refreshPlayers'>;
  players: PlayerRegistry;
  api: {
    get(path: string, query: QueryValues, lane: Lane): Promise<unknown>;
    patch(path: string, body: unknown, lane: Lane): Promise<unknown>;
    estimateWaitMs(lane: Lane): number;
  };
  order: RankOrder;
  /** The key's scopes once `whoami` answered; null before. */
  scopes: () => readonly string[] | null;
  /** True when the player is allowed the ACE `roster.manage` (may set any rank). */
  canManage: (src: string) => boolean;
  /** True when a roster status admits a member (`gate.requireStatus`); only then does a rank give authority. */
  admits: (status: string) => boolean;
  /** A confirmed change: log line, rank-changes.log, `roster:rankChanged`. */
  changed: (change: RankChange) => void;
  now: () => number;
  logger: Logger;
}

/**
 * Rank changes from the game. Department and rank names are resolved on what is known; then, at
 * most once per actor every few seconds, the target's and the actor's assignments are read fresh
 * (one request, write lane) and the change is decided on that: the target's rank now, the actor's
 * rank now and whether their status still admits them. The PATCH goes in the write lane, which
 * never spends what is kept for joins. Every outcome is a result; nothing throws.
 */
export class RankChanges {
  /** Targets with a change under way: a second one (a macro, a double click) is refused. */
  private readonly pending = new Set<string>();
  private readonly writeScope = new WriteScope();
  private readonly limits: RankChangeLimits;

  constructor(private readonly deps: RankChangeDeps) {
    this.limits = new RankChangeLimits(deps.now);
  }

  /**
   * Sets `rank` (id or name) in `department` (id, name or short name) for online player `target`.
   * `actor` is the acting player's server id, or null for the console or a trusted caller named `via`.
   */
  async setRank(
    target: string,
    department: string,
    rank: string,
    actor: string | null,
    via = 'console',
  ): Promise<RankChangeResult> {
    const found = this.targetIn(target, department);
    if (!found.ok) return found;
    const choose = namedChoice(this.deps.catalog.index, this.deps.order, found.department, rank);
    if (typeof choose !== 'function') return choose;
    return this.change(target, found, choose, actor, via);
  }

  /** One step up (`promote`) or down (`demote`) from the rank held on the roster now. */
  async step(
    target: string,
    department: string | null,
    direction: 'promote' | 'demote',
    actor: string | null,
    via = 'console',
  ): Promise<RankChangeResult> {
    const view = this.deps.players.get(target)?.view;
    const key = department ?? view?.primary?.id;
    if (view && key === undefined) return refuse(`${view.member.name} is in no department.`);
    const found = this.targetIn(target, key ?? '');
    if (!found.ok) return found;
    const ladder = this.ladder(found.department.id);
    const label = found.department.shortName ?? found.department.name;
    const choose = stepChoice(ladder, direction, label, found.view.member.name);
    return this.change(target, found, choose, actor, via);
  }

  private targetIn(target: string, department: string): Target {
    return findTarget(this.deps.catalog, this.deps.players, target, department);
  }

  /** Checks what needs no request, counts the attempt, then reads fresh and decides. */
  private async change(
    target: string,
    found: { view: MemberView; department: Department },
    choose: Choice,
    actorSrc: string | null,
    via: string,
  ): Promise<RankChangeResult> {
    const acting = actingFor(this.deps.players, this.deps.canManage, actorSrc, via);
    if (!acting.ok) return acting;
    // Outside the department on what the server holds: no authority there, and no read spent on
    // finding that out (a player spamming the command would otherwise spend the key's day). One
    // added to it a moment ago is refused until their record is read again, which fails closed.
    if (acting.view && !acting.view.department(found.department.id)) {
      const label = found.department.shortName ?? found.department.name;
      return refuse(
        `You are not in ${label} on the roster, so you hold no rank there to change others with.`,
      );
    }
    const scopeProblem = this.writeScope.missing(this.deps.scopes());
    if (scopeProblem) return refuse(scopeProblem);
    const name = found.view.member.name;
    const limited = this.limits.refusal(acting.key, found.view.member.id);
    if (limited) return refuse(limitText(limited, name));
    if (this.pending.has(target)) return refuse(`A rank change for ${name} is already under way.`);
    const waitMs = this.deps.api.estimateWaitMs('write');
    if (waitMs > MAX_WAIT_MS) return refuse(budgetText(waitMs));
    if (acting.key !== null) this.limits.countActor(acting.key);
    this.pending.add(target);
    try {
      return await this.decide(target, found, choose, acting);
    } finally {
      this.pending.delete(target);
    }
  }

  private async decide(
    target: string,
    { view, department }: { view: MemberView; department: Department },
    choose: Choice,
    acting: Acting,
  ): Promise<RankChangeResult> {
    const label = department.shortName ?? department.name;
    const name = view.member.name;
    const judge = acting.manages ? null : acting.view;
    const ids = judge ? [view.member.id, judge.member.id] : [view.member.id];
    let fresh: FreshAssignments;
    try {
      fresh = await readFreshAssignments(this.deps.api, ids);
    } catch (error) {
      this.deps.logger.warn(
        `reading ${name}'s assignments before a rank change failed: ${errorMessage(error)}`,
      );
      return refuse(rankChangeFailure(error, { target: name, department: label, rank: 'the rank' }));
    }
    const assignment = fresh.assignment(view.member.id, department.id);
    if (!assignment) {
      this.reread([target]);
      return refuse(`${name} is no longer in ${label} on the roster; their record is being re-read.`);
    }
    const current = heldRank(assignment, this.deps.catalog.index);
    if (current === undefined)
      return refuse(`${name}'s rank in ${label} is not one this server knows yet; try again shortly.`);
    if (current?.id !== department.rank?.id) this.reread([target]);
    const wanted = choose(current);
    if ('ok' in wanted) return wanted;
    if (current?.id === wanted.id) return refuse(`${name} already holds ${wanted.name} in ${label}.`);
    if (judge) {
      const own = fresh.assignment(judge.member.id, department.id);
      const rank = own ? (heldRank(own, this.deps.catalog.index) ?? null) : null;
      const status = fresh.status(judge.member.id);
      const cached = judge.department(department.id)?.rank?.id;
      if (rank?.id !== cached || (status !== null && status !== judge.member.status)) {
        if (acting.actor.src !== null) this.reread([acting.actor.src]);
      }
      const refusal = actorRefusal({
        actor: rank,
        status,
        admits: this.deps.admits,
        current,
        wanted,
        ladder: this.ladder(department.id),
        order: this.deps.order,
        name,
        label,
      });
      if (refusal) return refuse(refusal);
    }
    return sendRankChange(
      {
        ...this.deps,
        countTarget: (memberId) => this.limits.countTarget(memberId),
        scopeNamed: (scope) => this.writeScope.named(scope),
        reread: (src) => this.reread([src]),
      },
      { target, view, department, assignmentId: assignment.id, from: current, wanted, actor: acting.actor },
    );
  }

  /** What the cache holds for these players turned out stale: read them again, in the background. */
  private reread(srcs: string[]): void {
    this.deps.online.refreshPlayers(srcs).catch(() => undefined);
  }

  private ladder(departmentId: string): ApiRank[] {
    return this.deps.catalog.index.ladder(departmentId, this.deps.order);
  }
}
