/**
 * Priority lanes a request waits in. A joining player is never stuck behind a rank change, a
 * refresh of players already in the server or background work; a rank change (a supervisor
 * waits for the answer in chat) goes ahead of refreshes and background work.
 */
export type Lane = 'join' | 'write' | 'refresh' | 'background';

/** Lanes from most to least urgent. */
export const LANES: readonly Lane[] = ['join', 'write', 'refresh', 'background'];

/** One value per lane, each made fresh. */
export function perLane<T>(make: (lane: Lane) => T): Record<Lane, T> {
  return {
    join: make('join'),
    write: make('write'),
    refresh: make('refresh'),
    background: make('background'),
  };
}
