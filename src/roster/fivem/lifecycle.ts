import { licenseOf } from '../../platform/identifiers';
import { fx } from '../../platform/natives';
import type { Clock } from '../../platform/ports';
import type { OnlinePlayers } from '../online-players';
import type { PlayerEntry, PlayerRegistry } from '../player-registry';

export interface LifecycleDeps {
  online: () => OnlinePlayers | null;
  players: PlayerRegistry;
  clock: Clock;
  /** A player left: whatever was held for them goes (e.g. their principals). */
  dropped?(entry: PlayerEntry): void;
}

/** A player the resource has not seen connecting (bypassed another way, or online before a restart). */
export function entryFor(src: string, clock: Clock): PlayerEntry {
  return { license: licenseOf(src), name: fx.GetPlayerName(src) ?? '', view: undefined, since: clock.now() };
}

/** Follows players from their temporary id to their final id, and forgets them when they leave. */
export function attachLifecycle(deps: LifecycleDeps): void {
  fx.on('playerJoining', (oldId: unknown) => {
    const src = String(fx.source);
    const entry = deps.players.join(src, String(oldId), () => entryFor(src, deps.clock));
    void deps.online()?.loadPlayer(src, entry);
  });
  fx.on('playerDropped', () => {
    const entry = deps.players.drop(String(fx.source));
    if (entry) deps.dropped?.(entry);
  });
}

/** After a restart with players online: registers every connected player and loads them. */
export function loadOnlinePlayers(deps: LifecycleDeps): number {
  const online = deps.online();
  const ids = fx.getPlayers();
  for (const src of ids) {
    const entry = entryFor(String(src), deps.clock);
    deps.players.add(String(src), entry);
    if (online) void online.loadPlayer(String(src), entry);
  }
  return ids.length;
}
