import type { RosterCatalog } from './catalog';
import type { MemberResolver } from './member-resolver';
import { type MemberView, memberChanged, viewOf } from './member-view';
import type { ApiRank, Member, MemberLookup } from './model';
import type { PlayerEntry, PlayerRegistry } from './player-registry';
import type { RosterErrors } from './roster-errors';
import type { Lane } from './roster-source';

/** Where changes go: the FiveM side turns these into events and state bags. */
export interface RosterEvents {
  playerLoaded(src: string, member: Member | null): void;
  playerUpdated(src: string, member: Member | null, previous: Member | null): void;
}

export interface OnlinePlayersDeps {
  players: PlayerRegistry;
  members: MemberResolver;
  catalog: RosterCatalog;
  events: RosterEvents;
  errors: RosterErrors;
}

/**
 * The players online and their roster data: loaded as they join, read again (batched) when the
 * roster may have changed, and every change announced once through the roster events.
 */
export class OnlinePlayers {
  constructor(private readonly deps: OnlinePlayersDeps) {
    // Members shaped before the department list arrived know their departments by id only: shape
    // them again.
    deps.catalog.onFirstLoad(() => {
      if (deps.players.onlineCount > 0) void this.refreshOnline('refresh');
    });
  }

  /** The member record of a player, for exports: from memory only. */
  view(src: string): MemberView | undefined {
    return this.deps.players.get(src)?.view ?? undefined;
  }

  /** Gives a joined player their roster data and announces it once. */
  async loadPlayer(src: string, entry: PlayerEntry): Promise<void> {
    const { members, players } = this.deps;
    if (entry.view === undefined && entry.license !== null) {
      // Exports answer from the last known record (e.g. the snapshot after a restart) while the
      // service is asked.
      entry.view = members.lastKnown(entry.license);
      const resolution = await members.resolve(entry.license, 'join');
      entry.view = resolution.kind === 'answer' ? resolution.view : (resolution.lastKnown ?? entry.view);
    }
    if (!players.isOnline(src)) return;
    entry.announced = true;
    this.deps.events.playerLoaded(src, entry.view?.member ?? null);
  }

  /**
   * The mirror has read the whole roster again: online players take the record it holds for them
   * (no request), and those whose record changed hear `playerUpdated`. The few it does not hold
   * (gone from the roster, or a license it cannot say for) are read again. That makes the mirror's
   * full read the safety net for online players too. Returns how many changed.
   */
  async followMirror(lane: Lane = 'refresh'): Promise<number> {
    const { members } = this.deps;
    if (!members.mirrorAnswering || !this.deps.catalog.ready) return 0;
    let changed = 0;
    const unheld: string[] = [];
    for (const [src, entry] of this.deps.players.onlinePlayers()) {
      if (entry.license === null) continue;
      const view = members.mirrored(entry.license);
      if (view === undefined) unheld.push(src);
      else if (this.apply(src, view)) changed++;
    }
    if (unheld.length > 0) changed += (await this.refreshPlayers(unheld, lane)) ?? 0;
    return changed;
  }

  /** Re-checks every online player in one batched pass; fires updates for changes. */
  async refreshOnline(lane: Lane = 'refresh'): Promise<number> {
    return (await this.refreshLicenses(this.licensesOf(this.deps.players.onlinePlayers()), lane)) ?? 0;
  }

  /**
   * Re-reads just these online players (e.g. those an audit entry concerns), batched. Returns how
   * many changed, or null when the service could not answer.
   */
  async refreshPlayers(srcs: Iterable<string>, lane: Lane = 'refresh'): Promise<number | null> {
    const entries: [string, PlayerEntry][] = [];
    for (const src of srcs) {
      const entry = this.deps.players.get(src);
      if (entry && this.deps.players.isOnline(src)) entries.push([src, entry]);
    }
    return this.refreshLicenses(this.licensesOf(entries), lane);
  }

  /**
   * Re-reads these licenses, online or not (members an audit entry names), batched: the cache keeps
   * each answer, so the next join decides on it, and online holders hear `playerUpdated`. Returns
   * the licenses left without a kept answer (all of them when the service could not answer).
   */
  async refreshMembers(licenses: Iterable<string>, lane: Lane = 'refresh'): Promise<string[]> {
    const { members } = this.deps;
    const asked = [...new Set(licenses)];
    if (asked.length === 0) return [];
    let lookups: Map<string, MemberLookup | null>;
    try {
      lookups = await members.readMany(asked, lane);
    } catch (error) {
      this.deps.errors.note(error, 'member re-read failed');
      for (const license of asked) members.doubt(license);
      return asked;
    }
    const holders = this.licensesOf(this.deps.players.onlinePlayers());
    const missed: string[] = [];
    for (const license of asked) {
      const lookup = lookups.get(license);
      if (lookup === undefined) {
        missed.push(license);
        continue;
      }
      const answer = members.answered(license, lookup);
      // Shaped without department names, it was not cached: the next join would not see it.
      if (answer.unnamed) missed.push(license);
      for (const src of holders.get(license) ?? []) this.apply(src, answer.view);
    }
    // Named by a change that could not be read: what is held for them is a last known record only.
    for (const license of missed) members.doubt(license);
    return missed;
  }

  private licensesOf(entries: Iterable<[string, PlayerEntry]>): Map<string, string[]> {
    const byLicense = new Map<string, string[]>();
    for (const [src, entry] of entries) {
      if (entry.license === null) continue;
      byLicense.set(entry.license, [...(byLicense.get(entry.license) ?? []), src]);
    }
    return byLicense;
  }

  private async refreshLicenses(byLicense: Map<string, string[]>, lane: Lane): Promise<number | null> {
    if (byLicense.size === 0) return 0;
    const { members } = this.deps;
    let results: Map<string, MemberView | null>;
    try {
      const lookups = await members.readMany([...byLicense.keys()], lane);
      results = new Map();
      for (const [license, lookup] of lookups) results.set(license, members.answered(license, lookup).view);
    } catch (error) {
      this.deps.errors.note(error, 'background refresh failed');
      return null;
    }
    let changed = 0;
    for (const [license, srcs] of byLicense) {
      if (!results.has(license)) continue;
      for (const src of srcs) if (this.apply(src, results.get(license) ?? null)) changed++;
    }
    return changed;
  }

  /**
   * Re-shapes online players from the catalog just loaded (a renamed department or rank), without
   * a request; `playerUpdated` fires for those whose names changed.
   */
  reshapeOnline(): number {
    const { index } = this.deps.catalog;
    let changed = 0;
    for (const [src, entry] of this.deps.players.onlinePlayers()) {
      const view = entry.view;
      if (!view) continue;
      const departments = view.member.departments.map((d) => {
        const known = index.departments.get(d.id);
        const rank = d.rank ? index.rank(d.rank.id) : undefined;
        return {
          ...d,
          name: known?.name ?? d.name,
          shortName: known ? known.shortName : d.shortName,
          rank: d.rank && rank ? { id: rank.id, name: rank.name, position: rank.position } : d.rank,
        };
      });
      const next = viewOf({ ...view.member, departments }, view.assignments);
      if (!memberChanged(view.member, next.member)) continue;
      if (entry.license !== null) this.deps.members.reshaped(entry.license, next);
      if (this.apply(src, next)) changed++;
    }
    return changed;
  }

  /**
   * Records a rank the service confirmed for a player's department: exports show it at once, the
   * cache keeps it, and `playerUpdated` fires as for a refresh. Null when the player is gone.
   */
  recordRank(src: string, departmentId: string, rank: ApiRank): Member | null {
    const entry = this.deps.players.get(src);
    const view = entry?.view;
    if (!entry || !view) return null;
    const held = { id: rank.id, name: rank.name, position: rank.position };
    const member: Member = {
      ...view.member,
      departments: view.member.departments.map((d) => (d.id === departmentId ? { ...d, rank: held } : d)),
    };
    const next = viewOf(member, view.assignments);
    if (entry.license === null) {
      this.apply(src, next);
      return member;
    }
    this.deps.members.rankConfirmed(entry.license, next);
    // Every online player holding this license sees the change (one account, two clients).
    const holders = this.licensesOf(this.deps.players.onlinePlayers()).get(entry.license) ?? [src];
    for (const other of holders) this.apply(other, next);
    return member;
  }

  /** Fetches one player fresh; change events fire as for a background refresh. */
  async refreshPlayer(src: string): Promise<Member | null> {
    const entry = this.deps.players.get(src);
    if (!entry || entry.license === null) return null;
    const resolution = await this.deps.members.fetch(entry.license, 'refresh');
    if (resolution.kind === 'outage') return entry.view?.member ?? null;
    this.apply(src, resolution.view);
    return resolution.view?.member ?? null;
  }

  /** Records a new view for a player; returns whether other resources were told of a change. */
  private apply(src: string, view: MemberView | null): boolean {
    const entry = this.deps.players.get(src);
    if (!entry) return false;
    const previous = entry.view;
    entry.view = view;
    // Before playerLoaded went out there is nothing to update: loadPlayer announces this view.
    if (!entry.announced || !this.deps.players.isOnline(src)) return false;
    const before = previous?.member ?? null;
    const after = view?.member ?? null;
    if (!memberChanged(before, after)) return false;
    this.deps.events.playerUpdated(src, after, before);
    return true;
  }
}
