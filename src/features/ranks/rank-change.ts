import type { Department, Member, Rank } from '../../roster/model';

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

/** A refused change: the reason is the sentence the person who asked reads. */
export type Refusal = { ok: false; reason: string };

export function refuse(reason: string): Refusal {
  return { ok: false, reason };
}
