import { answerWithin } from '../../../platform/answer-within';
import { key, license, serverId } from '../../../platform/arguments';
import type { Clock } from '../../../platform/ports';
import type { MemberResolver } from '../../../roster/member-resolver';
import type { OnlinePlayers } from '../../../roster/online-players';
import type { RosterQueries } from '../../../roster/queries';
import type { ExportAnswers } from './safe-exports';

export interface ExportDeps {
  members: MemberResolver;
  online: OnlinePlayers;
  queries: RosterQueries;
  /**
   * `lookupLicense` and `refreshPlayer` answer within this (`gate.timeoutSeconds`) whatever the
   * service does, and at once from memory when `stopped` settles (the resource stops: a caller
   * still waiting would otherwise wait for ever).
   */
  deadline: { ms: number; clock: Clock; stopped: Promise<void> };
}

/**
 * The roster's own exports (members, departments, ranks): name → [handler, the
 * answer when it fails]. Bad input gets the empty answer, never a throw.
 */
export function rosterExports({ members, online, queries, deadline }: ExportDeps): ExportAnswers {
  const view = (src: unknown) => {
    const id = serverId(src);
    return id === null ? undefined : online.view(id);
  };
  const inTime = <T>(work: Promise<T>, late: () => T): Promise<T> =>
    answerWithin(work, deadline.ms, deadline.clock, late, deadline.stopped);
  return {
    getMember: [(src) => view(src)?.member ?? null, null],
    isOnRoster: [(src) => queries.isOnRoster(view(src)), false],
    getDepartments: [(src) => view(src)?.member.departments ?? [], []],
    isInDepartment: [
      (src, department) => {
        const d = key(department);
        return d !== null && queries.isInDepartment(view(src), d);
      },
      false,
    ],
    getRank: [
      (src, department) => {
        if (department === undefined || department === null) return queries.rank(view(src));
        const d = key(department);
        return d === null ? null : queries.rank(view(src), d);
      },
      null,
    ],
    hasRank: [
      (src, department, rank) => {
        const d = key(department);
        const r = key(rank);
        return d !== null && r !== null && queries.hasRank(view(src), d, r);
      },
      false,
    ],
    hasMinRank: [
      (src, department, rank) => {
        const d = key(department);
        const r = key(rank);
        return d !== null && r !== null && queries.hasMinRank(view(src), d, r);
      },
      false,
    ],
    lookupLicense: [
      async (value) => {
        const wanted = license(value);
        if (wanted === null) return null;
        const lastKnown = () => members.lastKnown(wanted)?.member ?? null;
        const resolution = await inTime(members.resolve(wanted, 'refresh'), () => undefined);
        if (resolution === undefined) return lastKnown();
        if (resolution.kind === 'answer') return resolution.view?.member ?? null;
        return resolution.lastKnown?.member ?? null;
      },
      null,
    ],
    refreshPlayer: [
      async (src) => {
        const id = serverId(src);
        if (id === null) return null;
        return inTime(online.refreshPlayer(id), () => online.view(id)?.member ?? null);
      },
      null,
    ],
  };
}
