import { assignmentSchema } from '../api/record-schemas';
import { hasScope } from '../api/scope-warnings';
import type { Lane } from '../limiter/lane';
import type { ApiRank, Department, Member, Rank } from '../model';
import type { PlayerRegistry } from '../players/player-registry';
import type { Logger } from '../ports';
import type { RankOrder } from '../roster/catalog-index';
import type { MemberView } from '../roster/member-view';
import type { RosterService } from '../roster/roster-service';
import { checkAuthority } from './rank-authority';
import { rankChangeFailure, scopeNamed } from './rank-change-failure';

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
    patch(path: string, body: unknown, lane: Lane): Promise<unknown>;
    estimateWaitMs(lane: Lane): number;
  };
  order: RankOrder;
  /** The key's scopes once `whoami` answered; null before. */
  scopes: () => readonly string[] | null;
  /** True when the player is allowed the ACE `roster.manage` (may set any rank). */
  canManage: (src: string) => boolean;
  /** A confirmed change: log line, rank-changes.log, `roster:rankChanged`. */
  changed: (change: RankChange) => void;
  logger: Logger;
}

/** Writes are refused rather than queued when the rate limiter would hold them longer than this. */
const MAX_WAIT_MS = 10_000;
const WRITE_SCOPES = ['roster:write', 'departments:write'];

type Checked = { ok: false; reason: string } | { ok: true; view: MemberView; department: Department };

/**
 * Rank changes from the game: resolves department, assignment and rank from what is known, checks
 * the actor's authority before anything is sent, PATCHes the assignment in the join lane (someone
 * is waiting) and records the answer. Every outcome is a result; nothing throws.
 */
export class RankChanges {
  /** Targets with a change under way: a second one (a macro, a double click) is refused. */
  private readonly pending = new Set<string>();
  /** The write scope the service asked for, once an `insufficient_scope` named it. */
  private neededScope: string | null = null;

  constructor(private readonly deps: RankChangeDeps) {}

  /**
   * Sets `rank` (id or name) in `department` (id, name or short name) for online player `target`.
   * `actor` is the acting player's server id, or null for a trusted caller named `via`.
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
    return this.change(target, found.view, found.department, wanted, actor, via);
  }

  /** One step up (`promote`) or down (`demote`); the department defaults to the target's primary one. */
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
    const current = found.department.rank;
    const at = current ? ladder.findIndex((r) => r.id === current.id) : ladder.length;
    const label = found.department.shortName ?? found.department.name;
    if (current && at < 0) return fail(`${current.name} is not on the ${label} rank ladder; use rank set.`);
    const next = direction === 'promote' ? ladder[at - 1] : ladder[at + 1];
    if (!next) {
      const end = direction === 'promote' ? 'the highest' : current ? 'the lowest' : 'no';
      return fail(`${found.view.member.name} already holds ${end} rank in ${label}.`);
    }
    return this.change(target, found.view, found.department, next, actor, via);
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

  private async change(
    target: string,
    view: MemberView,
    department: Department,
    wanted: ApiRank,
    actorSrc: string | null,
    via: string,
  ): Promise<RankChangeResult> {
    const label = department.shortName ?? department.name;
    const name = view.member.name;
    const from = department.rank;
    if (from?.id === wanted.id) return fail(`${name} already holds ${wanted.name} in ${label}.`);
    const actor = this.actorOf(actorSrc, via);
    if (!actor.ok) return actor;
    if (actorSrc !== null && !this.deps.canManage(actorSrc)) {
      const own = actor.view.department(department.id)?.rank ?? null;
      const authority = checkAuthority({
        actor: own,
        current: from,
        wanted,
        ladder: this.ladder(department.id),
        order: this.deps.order,
      });
      if (!authority.ok) {
        const takes = authority.needed
          ? `it takes ${authority.needed.name} or above in ${label}`
          : `only staff allowed roster.manage can do that in ${label}`;
        const yours = own ? `you are ${own.name}` : `you hold no rank in ${label}`;
        return fail(
          `You may not set ${wanted.name} for ${name} (now ${from?.name ?? 'no rank'}): ${takes}; ${yours}.`,
        );
      }
    }
    const scopeProblem = this.missingWriteScope();
    if (scopeProblem) return fail(scopeProblem);
    if (this.pending.has(target)) return fail(`A rank change for ${name} is already under way.`);
    this.pending.add(target);
    try {
      return await this.send(target, view, department, wanted, actor.actor);
    } finally {
      this.pending.delete(target);
    }
  }

  private async send(
    target: string,
    view: MemberView,
    department: Department,
    wanted: ApiRank,
    actor: RankActor,
  ): Promise<RankChangeResult> {
    const { api, service, logger } = this.deps;
    const label = department.shortName ?? department.name;
    const context = { target: view.member.name, department: label, rank: wanted.name };
    let assignmentId = view.assignments.get(department.id);
    if (assignmentId === undefined) {
      // A record from the snapshot knows no assignment ids: read the member once.
      await service.refreshPlayer(target);
      assignmentId = this.deps.players.get(target)?.view?.assignments.get(department.id);
      if (assignmentId === undefined) {
        return fail(
          `The roster shows no assignment of ${view.member.name} in ${label} right now; try again.`,
        );
      }
    }
    const waitMs = api.estimateWaitMs('join');
    if (waitMs > MAX_WAIT_MS) {
      return fail(`The roster is busy; try again in about ${Math.ceil(waitMs / 1000)} s.`);
    }
    let answer: unknown;
    try {
      answer = await api.patch(
        `/api/v1/department-assignments/${encodeURIComponent(assignmentId)}`,
        { rankId: wanted.id },
        'join',
      );
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'insufficient_scope') {
        this.neededScope = scopeNamed((error as { serviceMessage?: string }).serviceMessage ?? '') ?? 'write';
      }
      if (code === 'not_found') void service.refreshPlayer(target);
      logger.warn(`rank change for ${view.member.name} in ${label} failed: ${(error as Error).message}`);
      return fail(rankChangeFailure(error, context));
    }
    const confirmed = this.confirmedRank(answer, department.id, wanted);
    const member = service.recordRank(target, department.id, confirmed);
    if (member === null)
      return fail(`${view.member.name} left before the change was confirmed; it was made.`);
    const now = member.departments.find((d) => d.id === department.id) ?? department;
    const change: RankChange = {
      target: { src: target, name: member.name, memberId: member.id },
      department: now,
      from: department.rank,
      to: now.rank ?? toRank(confirmed),
      actor,
    };
    this.deps.changed(change);
    return { ok: true, member, change };
  }

  /** The rank the service's answer shows; the rank asked for when the answer does not say. */
  private confirmedRank(answer: unknown, departmentId: string, wanted: ApiRank): ApiRank {
    const parsed = assignmentSchema.safeParse(answer);
    if (!parsed.success) return wanted;
    const rankId = parsed.data.rankId;
    if (rankId === null || rankId === wanted.id) return wanted;
    const rank = parsed.data.rank ?? this.deps.service.catalog.rank(rankId);
    return rank && (rank.departmentId ?? departmentId) === departmentId ? rank : wanted;
  }

  private actorOf(
    src: string | null,
    via: string,
  ): { ok: true; actor: RankActor; view: MemberView } | { ok: false; reason: string } {
    if (src === null) return { ok: true, actor: { src: null, name: via, license: null }, view: EMPTY_VIEW };
    const entry = this.deps.players.get(src);
    if (!entry || !this.deps.players.isOnline(src)) return fail(`No player ${src} (the actor) is online.`);
    const actor = { src, name: entry.name, license: entry.license };
    if (this.deps.canManage(src)) return { ok: true, actor, view: entry.view ?? EMPTY_VIEW };
    if (!entry.view) return fail('Your roster record is not loaded, so your rank is unknown.');
    return { ok: true, actor, view: entry.view };
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

const EMPTY_VIEW: MemberView = {
  member: { id: '', name: '', status: '', license: '', departments: [] },
  primary: null,
  department: () => undefined,
  assignments: new Map(),
};

function fail(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

function toRank(rank: ApiRank): Rank {
  return { id: rank.id, name: rank.name, position: rank.position };
}
