import type { QueryValues } from '../api/roster-api';
import { hasScope } from '../api/scope-warnings';
import type { Lane } from '../limiter/lane';
import type { ApiAssignment, ApiRank, Department, Member, Rank } from '../model';
import type { PlayerRegistry } from '../players/player-registry';
import type { Logger } from '../ports';
import type { RankOrder } from '../roster/catalog-index';
import type { MemberView } from '../roster/member-view';
import type { RosterService } from '../roster/roster-service';
import { type FreshAssignments, readFreshAssignments } from './fresh-assignments';
import { actorRefusal } from './rank-authority';
import { rankChangeFailure } from './rank-change-failure';
import { limitText, RankChangeLimits } from './rank-change-limits';
import { budgetText, MAX_WAIT_MS, sendRankChange, toRank } from './rank-patch';

/** What `setRank` resolves to; `change` is for the command's answer and stays inside the resource. */
export type RankChangeResult =
  | { ok: true; member: Member; change: RankChange }
  | { ok: false; reason: string };

/** Who made a change: a player (server id) or the console / a trusted resource. */
export interface RankActor {
  src: string | null;
  name: string;
  license: string | null;
}

/** A rank change the service confirmed: what the log, the console and `roster:rankChanged` get. */
export interface RankChange {
  target: { src: string; name: string; memberId: string };
  department: Department;
  from: Rank | null;
  to: Rank;
  actor: RankActor;
}

export interface RankChangeDeps {
  service: RosterService;
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

const WRITE_SCOPES = ['roster:write', 'departments:write'];

type Failure = { ok: false; reason: string };
type Checked = Failure | { ok: true; view: MemberView; department: Department };
/** The rank to set, given the target's rank on the roster now (a step depends on it). */
type Choice = (current: Rank | null) => ApiRank | Failure;
type Acting = {
  ok: true;
  actor: RankActor;
  /** The acting player's record as cached, when their rank decides (not the console, not a manager). */
  view: MemberView | null;
  manages: boolean;
  /** Whose budget the change counts against; null for the console (exempt). */
  key: string | null;
};

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
  /** The write scope the service asked for, once an `insufficient_scope` named it. */
  private neededScope: string | null = null;
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
    const wanted = this.deps.service.catalog.rankIn(found.department.id, rank);
    if (!wanted) {
      const names = this.ladder(found.department.id).map((r) => r.name);
      return fail(
        `${found.department.shortName ?? found.department.name} has no rank "${rank}"${names.length > 0 ? `; its ranks: ${names.join(', ')}` : ''}.`,
      );
    }
    return this.change(target, found, () => wanted, actor, via);
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
    if (view && key === undefined) return fail(`${view.member.name} is in no department.`);
    const found = this.targetIn(target, key ?? '');
    if (!found.ok) return found;
    const ladder = this.ladder(found.department.id);
    const label = found.department.shortName ?? found.department.name;
    const name = found.view.member.name;
    return this.change(
      target,
      found,
      (current) => {
        const at = current ? ladder.findIndex((r) => r.id === current.id) : ladder.length;
        if (current && at < 0)
          return fail(`${current.name} is not on the ${label} rank ladder; use rank set.`);
        const next = direction === 'promote' ? ladder[at - 1] : ladder[at + 1];
        if (next) return next;
        const end = direction === 'promote' ? 'the highest' : current ? 'the lowest' : 'no';
        return fail(`${name} already holds ${end} rank in ${label}.`);
      },
      actor,
      via,
    );
  }

  private targetIn(target: string, department: string): Checked {
    const { service, players } = this.deps;
    const entry = players.get(target);
    if (!entry || !players.isOnline(target)) return fail(`No player ${target} is online.`);
    if (entry.view === undefined)
      return fail(`Player ${target}'s roster record is still loading; try again.`);
    if (entry.view === null) return fail(`${entry.name || `Player ${target}`} is not on the roster.`);
    if (!service.catalogReady) return fail('Departments and ranks are not loaded yet; try again shortly.');
    const known = service.catalog.department(department);
    if (!known) {
      const names = service.catalog.catalog.departments.map((d) => d.shortName ?? d.name);
      return fail(`There is no department "${department}"; departments: ${names.join(', ')}.`);
    }
    const held = entry.view.department(known.id);
    if (!held) return fail(`${entry.view.member.name} is not in ${known.shortName ?? known.name}.`);
    return { ok: true, view: entry.view, department: held };
  }

  /** Checks what needs no request, counts the attempt, then reads fresh and decides. */
  private async change(
    target: string,
    found: { view: MemberView; department: Department },
    choose: Choice,
    actorSrc: string | null,
    via: string,
  ): Promise<RankChangeResult> {
    const acting = this.actorOf(actorSrc, via);
    if (!acting.ok) return acting;
    const scopeProblem = this.missingWriteScope();
    if (scopeProblem) return fail(scopeProblem);
    const name = found.view.member.name;
    const limited = this.limits.refusal(acting.key, found.view.member.id);
    if (limited) return fail(limitText(limited, name));
    if (this.pending.has(target)) return fail(`A rank change for ${name} is already under way.`);
    const waitMs = this.deps.api.estimateWaitMs('write');
    if (waitMs > MAX_WAIT_MS) return fail(budgetText(waitMs));
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
        `reading ${name}'s assignments before a rank change failed: ${(error as Error).message}`,
      );
      return fail(rankChangeFailure(error, { target: name, department: label, rank: 'the rank' }));
    }
    const assignment = fresh.assignment(view.member.id, department.id);
    if (!assignment) {
      this.reread([target]);
      return fail(`${name} is no longer in ${label} on the roster; their record is being re-read.`);
    }
    const current = this.rankOf(assignment);
    if (current === undefined)
      return fail(`${name}'s rank in ${label} is not one this server knows yet; try again shortly.`);
    if (current?.id !== department.rank?.id) this.reread([target]);
    const wanted = choose(current);
    if ('ok' in wanted) return wanted;
    if (current?.id === wanted.id) return fail(`${name} already holds ${wanted.name} in ${label}.`);
    if (judge) {
      const own = fresh.assignment(judge.member.id, department.id);
      const rank = own ? (this.rankOf(own) ?? null) : null;
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
      if (refusal) return fail(refusal);
    }
    return sendRankChange(
      {
        ...this.deps,
        countTarget: (memberId) => this.limits.countTarget(memberId),
        scopeNamed: (scope) => {
          this.neededScope = scope;
        },
        reread: (src) => this.reread([src]),
      },
      { target, view, department, assignmentId: assignment.id, from: current, wanted, actor: acting.actor },
    );
  }

  /** The rank an assignment holds (null: none); undefined when it names a rank not known here. */
  private rankOf(assignment: ApiAssignment): Rank | null | undefined {
    if (assignment.rankId === null) return null;
    const rank =
      assignment.rank?.id === assignment.rankId
        ? assignment.rank
        : this.deps.service.catalog.rank(assignment.rankId);
    return rank ? toRank(rank) : undefined;
  }

  /** What the cache holds for these players turned out stale: read them again, in the background. */
  private reread(srcs: string[]): void {
    this.deps.service.refreshPlayers(srcs).catch(() => undefined);
  }

  private actorOf(src: string | null, via: string): Acting | Failure {
    if (src === null) {
      return {
        ok: true,
        actor: { src: null, name: via, license: null },
        view: null,
        manages: true,
        key: null,
      };
    }
    const entry = this.deps.players.get(src);
    if (!entry || !this.deps.players.isOnline(src)) return fail(`No player ${src} (the actor) is online.`);
    const actor = { src, name: entry.name, license: entry.license };
    // An actor's budget follows the person across reconnections (a new server id each time).
    const key = entry.license ?? `player:${src}`;
    if (this.deps.canManage(src)) return { ok: true, actor, view: null, manages: true, key };
    if (entry.view === undefined)
      return fail('Your roster record is not loaded yet, so your rank is unknown.');
    if (entry.view === null)
      return fail('You are not on the roster, so you hold no rank to change others with.');
    return { ok: true, actor, view: entry.view, manages: false, key };
  }

  /** A reason when the key surely cannot write, so nothing is sent for nothing. */
  private missingWriteScope(): string | null {
    const scopes = this.deps.scopes();
    if (scopes === null) return null;
    const needed = this.neededScope ? [this.neededScope] : WRITE_SCOPES;
    if (needed.some((scope) => hasScope(scopes, scope))) return null;
    return `The server's roster API key may not change ranks: it lacks ${needed.length === 1 ? `the scope ${needed[0]}` : `a write scope (${needed.join(' or ')})`}. The owner adds it to the key in the roster dashboard (Settings, API Keys).`;
  }

  private ladder(departmentId: string): ApiRank[] {
    return this.deps.service.catalog.ladder(departmentId, this.deps.order);
  }
}

function fail(reason: string): Failure {
  return { ok: false, reason };
}
