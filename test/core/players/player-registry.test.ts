import { describe, expect, it } from 'vitest';
import { type PlayerEntry, PlayerRegistry } from '../../../src/core/players/player-registry';

const entry = (since: number): PlayerEntry => ({ license: 'license:x', name: 'A', view: undefined, since });

describe('PlayerRegistry', () => {
  it('moves a connecting player to the final id on join', () => {
    const players = new PlayerRegistry();
    const e = entry(0);
    players.connect('65536', e);
    expect(players.join('1', '65536', () => entry(1))).toBe(e);
    expect(players.get('1')).toBe(e);
    expect(players.get('65536')).toBeUndefined();
    expect(players.isOnline('1')).toBe(true);
  });

  it('starts a fresh entry for a player never seen connecting', () => {
    const players = new PlayerRegistry();
    const fresh = entry(5);
    expect(players.join('2', '65540', () => fresh)).toBe(fresh);
  });

  it('sweeps temporary ids that never joined, and only those that are old', () => {
    const players = new PlayerRegistry();
    players.connect('65536', entry(0));
    players.connect('65537', entry(9_000));
    players.add('1', entry(0));
    expect(players.sweep(10_000, 5_000)).toBe(1);
    expect(players.get('65536')).toBeUndefined();
    expect(players.get('65537')).toBeDefined();
    expect(players.get('1')).toBeDefined();
  });

  it('drops players by final or temporary id', () => {
    const players = new PlayerRegistry();
    players.add('1', entry(0));
    players.connect('65536', entry(0));
    players.drop('1');
    players.drop('65536');
    expect(players.onlineCount + players.connectingCount).toBe(0);
  });
});
