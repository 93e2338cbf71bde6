import type { MemberView } from '../../roster/member-view';
import type { PlayerRegistry } from '../../roster/player-registry';
import { type RankActor, type Refusal, refuse } from './rank-change';

/** Who asks for a change, and how their authority is judged. */
export type Acting = {
  ok: true;
  actor: RankActor;
  /** The acting player's record as cached, when their rank decides (not the console, not a manager). */
  view: MemberView | null;
  manages: boolean;
  /** Whose budget the change counts against; null for the console (exempt). */
  key: string | null;
};

/**
 * The actor of a change: the console or a trusted caller named `via` when `src` is null (exempt
 * from the budget, may set any rank), else an online player whose rank decides unless they may
 * `roster.manage`.
 */
export function actingFor(
  players: PlayerRegistry,
  canManage: (src: string) => boolean,
  src: string | null,
  via: string,
): Acting | Refusal {
  if (src === null) {
    return {
      ok: true,
      actor: { src: null, name: via, license: null },
      view: null,
      manages: true,
      key: null,
    };
  }
  const entry = players.get(src);
  if (!entry || !players.isOnline(src)) return refuse(`No player ${src} (the actor) is online.`);
  const actor = { src, name: entry.name, license: entry.license };
  // An actor's budget follows the person across reconnections (a new server id each time).
  const key = entry.license ?? `player:${src}`;
  if (canManage(src)) return { ok: true, actor, view: null, manages: true, key };
  if (entry.view === undefined)
    return refuse('Your roster record is not loaded yet, so your rank is unknown.');
  if (entry.view === null)
    return refuse('You are not on the roster, so you hold no rank to change others with.');
  return { ok: true, actor, view: entry.view, manages: false, key };
}
