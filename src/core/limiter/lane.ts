/**
 * Priority lanes a request waits in. A joining player is never stuck behind a refresh of
 * players already in the server, and neither waits behind background work.
 */
export type Lane = 'join' | 'refresh' | 'background';

/** Lanes from most to least urgent. */
export const LANES: readonly Lane[] = ['join', 'refresh', 'background'];
