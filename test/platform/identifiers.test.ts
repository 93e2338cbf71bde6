import { describe, expect, it } from 'vitest';
import { license } from '../../src/platform/arguments';
import { gameLicense } from '../../src/platform/identifiers';
import { FakeClock, fakeRoster, testClient } from '../roster/client/fake-roster';
import { rosterHandler } from '../roster/client/roster-data';

const hex = '0123456789abcdef0123456789abcdef01234567';

/** What FXServer gives a player, then the ways a string can look like one and not be. */
const VALID = [`license:${hex}`, `LICENSE:${hex.toUpperCase()}`, `  license:${hex}\n`];
const INVALID = [
  'license:abc',
  `license:${hex.slice(0, 39)}`,
  `license:${hex}0`,
  `license:${'g'.repeat(40)}`,
  `license:${'z'.repeat(128)}`,
  `license2:${hex}`,
  hex,
  'steam:110000100000000',
  '',
];

describe('game licenses', () => {
  it('a license FXServer would give is read as it writes it, lower case', () => {
    for (const value of VALID) {
      expect(gameLicense(value)).toBe(`license:${hex}`);
      expect(license(value)).toBe(`license:${hex}`);
    }
  });

  it('anything else is no license, for an export argument as for a lookup', () => {
    for (const value of INVALID) {
      expect(gameLicense(value)).toBeNull();
      expect(license(value)).toBeNull();
    }
    expect(license(42)).toBeNull();
  });

  it('a lookup by a string that is no game license asks the service nothing', async () => {
    const clock = new FakeClock();
    const odd = 'license:abc';
    // The service lists a member under it: looked up, it would be found.
    const { agent, requests } = fakeRoster(clock, rosterHandler([{ id: 'm1', gameLicense: odd }]));
    const { api } = testClient(clock, agent);
    await expect(api.lookup(odd)).resolves.toBeNull();
    await expect(api.lookup(`license:${'z'.repeat(40)}`)).resolves.toBeNull();
    expect(requests).toEqual([]);
    await expect(api.lookup(`LICENSE:${hex.toUpperCase()}`)).resolves.toBeNull();
    expect(requests.map((r) => r.query.getAll('gameLicense'))).toEqual([[`license:${hex}`]]);
    await api.close();
  });
});
