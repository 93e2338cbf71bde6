import type { RosterCatalog } from '../../roster/catalog';
import type { MemberView } from '../../roster/member-view';
import type { Department } from '../../roster/model';
import type { PlayerRegistry } from '../../roster/player-registry';
import { type Refusal, refuse } from './rank-change';

/** The target of a change as cached, and the department of theirs it is about. */
export type Target = Refusal | { ok: true; view: MemberView; department: Department };

/**
 * Resolves an online player and a department (id, name or short name) on what is known, before
 * any request: each way it can fail says what the person asking should do.
 */
export function findTarget(
  catalog: RosterCatalog,
  players: PlayerRegistry,
  target: string,
  department: string,
): Target {
  const entry = players.get(target);
  if (!entry || !players.isOnline(target)) return refuse(`No player ${target} is online.`);
  if (entry.view === undefined)
    return refuse(`Player ${target}'s roster record is still loading; try again.`);
  if (entry.view === null) return refuse(`${entry.name || `Player ${target}`} is not on the roster.`);
  if (!catalog.ready) return refuse('Departments and ranks are not loaded yet; try again shortly.');
  const known = catalog.index.department(department);
  if (!known) {
    const names = catalog.index.catalog.departments.map((d) => d.shortName ?? d.name);
    return refuse(`There is no department "${department}"; departments: ${names.join(', ')}.`);
  }
  const held = entry.view.department(known.id);
  if (!held) return refuse(`${entry.view.member.name} is not in ${known.shortName ?? known.name}.`);
  return { ok: true, view: entry.view, department: held };
}
