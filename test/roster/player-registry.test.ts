import { describe, expect, it } from 'vitest';
import { type PlayerEntry, PlayerRegistry } from '../../src/roster/player-registry';

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

  it('finds a player by license under a final id it has not seen yet, and forgets them on join, drop or sweep', () => {
    const licenses: Record<string, string> = { '7': 'license:a', '8': 'license:b' };
    let asked = 0;
    const players = new PlayerRegistry((id) => {
      asked += 1;
      return licenses[id] ?? null;
    });
    expect(players.get('7')).toBeUndefined();
    expect(asked).toBe(0); // nobody connecting: a miss costs nothing
    const a = { ...entry(0), license: 'license:a' };
    players.connect('65536', a);
    expect(players.get('7')).toBe(a);
    expect(players.get('8')).toBeUndefined();
    expect(players.join('7', '65536', () => entry(1))).toBe(a);
    players.connect('65537', { ...entry(0), license: 'license:b' });
    players.drop('65537');
    expect(players.get('8')).toBeUndefined();
    players.connect('65538', { ...entry(0), license: 'license:b' });
    players.sweep(10_000, 5_000);
    expect(players.get('8')).toBeUndefined();
  });
});
