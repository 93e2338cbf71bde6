import type { ScriptResource } from '../emulator';
import type { MemberAnswer, RankAnswer } from './answers';

/** `roster:playerUpdated` as the caller resource received it, with when. */
export interface PlayerUpdate {
  src: number;
  member: MemberAnswer | null;
  previous: MemberAnswer | null;
  at: number;
}

/** `roster:rankChanged(target, { department, from, to, actor })` as received. */
export interface RankChanged {
  src: number;
  department: { shortName: string | null; name: string };
  from: RankAnswer | null;
  to: RankAnswer;
  actor: number;
  at: number;
}

/** What a caller resource heard of the roster's events, in order. */
export interface RosterEventLog {
  loaded: Map<number, MemberAnswer | null>;
  updates: PlayerUpdate[];
  rankChanges: RankChanged[];
}

/** Listens, as another resource would, to roster's events: players loaded and updated, ranks changed. */
export function listenToRoster(caller: ScriptResource): RosterEventLog {
  const log: RosterEventLog = { loaded: new Map(), updates: [], rankChanges: [] };
  caller.on('roster:playerLoaded', (src, member) =>
    log.loaded.set(Number(src), member as MemberAnswer | null),
  );
  caller.on('roster:playerUpdated', (src, member, previous) =>
    log.updates.push({
      src: Number(src),
      member: member as MemberAnswer | null,
      previous: previous as MemberAnswer | null,
      at: performance.now(),
    }),
  );
  caller.on('roster:rankChanged', (src, change) =>
    log.rankChanges.push({
      ...(change as Omit<RankChanged, 'src' | 'at'>),
      src: Number(src),
      at: performance.now(),
    }),
  );
  return log;
}
