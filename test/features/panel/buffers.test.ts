import { describe, expect, it } from 'vitest';
import { hostOf } from '../../../src/features/panel/client-address';
import { Lockout } from '../../../src/features/panel/lockout';
import { MinuteCounts } from '../../../src/features/panel/minute-counts';
import { RingBuffer } from '../../../src/features/panel/ring-buffer';
import { Sessions } from '../../../src/features/panel/sessions';
import { tokenMatcher, webTokenSetting } from '../../../src/features/panel/web-token';
import { partialLicense } from '../../../src/platform/partial-license';

describe('RingBuffer', () => {
  it('keeps only the newest items, oldest first', () => {
    const ring = new RingBuffer<number>(3);
    for (let i = 1; i <= 7; i++) ring.push(i);
    expect(ring.size).toBe(3);
    expect(ring.toArray()).toEqual([5, 6, 7]);
  });
});

describe('MinuteCounts', () => {
  it('counts per minute over the last hour and forgets older minutes', () => {
    const counts = new MinuteCounts(60);
    const t0 = Date.UTC(2025, 0, 1, 12, 0, 0);
    counts.add(t0, false);
    counts.add(t0 + 1000, true);
    counts.add(t0 + 61_000, false);
    let series = counts.series(t0 + 61_000);
    expect(series).toHaveLength(60);
    expect(series.at(-1)).toEqual({ at: t0 + 60_000, requests: 1, throttled: 0 });
    expect(series.at(-2)).toEqual({ at: t0, requests: 2, throttled: 1 });
    // An hour later the slot of t0 is reused and its old counts never show.
    counts.add(t0 + 60 * 60_000, false);
    series = counts.series(t0 + 60 * 60_000);
    expect(series.reduce((n, m) => n + m.requests, 0)).toBe(2);
  });
});

describe('web token', () => {
  it('is off when empty, refused when shorter than 16 characters, on otherwise', () => {
    expect(webTokenSetting('  ')).toEqual({ state: 'off' });
    const short = webTokenSetting('short-token');
    expect(short.state).toBe('invalid');
    expect(short.state === 'invalid' && short.problem).toContain('roster_web_token');
    expect(webTokenSetting('0123456789abcdef')).toEqual({ state: 'on', token: '0123456789abcdef' });
  });

  it('matches only the exact token, whatever the candidate length', () => {
    const matches = tokenMatcher('0123456789abcdef');
    expect(matches('0123456789abcdef')).toBe(true);
    expect(matches('0123456789abcdeF')).toBe(false);
    expect(matches('0123456789abcdef0')).toBe(false);
    expect(matches('')).toBe(false);
  });
});

describe('Lockout', () => {
  it('locks an address after 5 wrong tokens within 10 minutes, for 10 minutes', () => {
    const lockout = new Lockout();
    const t0 = 1_000_000;
    for (let i = 0; i < 4; i++) expect(lockout.fail('10.0.0.1', t0 + i)).toBe(false);
    expect(lockout.lockedFor('10.0.0.1', t0 + 10)).toBe(0);
    expect(lockout.fail('10.0.0.1', t0 + 10)).toBe(true);
    expect(lockout.lockedFor('10.0.0.1', t0 + 10)).toBe(10 * 60_000);
    expect(lockout.lockedFor('10.0.0.2', t0 + 10)).toBe(0);
    expect(lockout.lockedFor('10.0.0.1', t0 + 10 + 10 * 60_000)).toBe(0);
  });

  it('forgets failures older than the window', () => {
    const lockout = new Lockout();
    for (let i = 0; i < 4; i++) lockout.fail('a', i * 60_000);
    expect(lockout.fail('a', 11 * 60_000)).toBe(false);
  });

  it('remembers a bounded number of addresses', () => {
    const lockout = new Lockout({ maxAddresses: 100 });
    for (let i = 0; i < 1000; i++) lockout.fail(`10.0.${i >> 8}.${i & 255}`, i);
    expect(lockout.size).toBeLessThanOrEqual(100);
  });

  it('still locks a new address when the table is full of locked ones, forgetting the oldest', () => {
    const lockout = new Lockout({ maxAddresses: 3 });
    for (const address of ['a', 'b', 'c']) for (let i = 0; i < 5; i++) lockout.fail(address, i);
    expect(['a', 'b', 'c'].map((a) => lockout.lockedFor(a, 10) > 0)).toEqual([true, true, true]);
    const fifth = [1, 2, 3, 4, 5].map((i) => lockout.fail('d', 10 + i));
    expect(fifth).toEqual([false, false, false, false, true]);
    expect(lockout.lockedFor('d', 20)).toBe(10 * 60_000 - 5);
    expect(lockout.lockedFor('a', 20)).toBe(0);
    expect(lockout.lockedFor('c', 20)).toBeGreaterThan(0);
    expect(lockout.size).toBe(3);
  });

  it('takes the port off FXServer addresses', () => {
    expect(hostOf('127.0.0.1:50123')).toBe('127.0.0.1');
    expect(hostOf('[::1]:50123')).toBe('::1');
    expect(hostOf('203.0.113.9')).toBe('203.0.113.9');
  });
});

describe('Sessions', () => {
  it('expire, end and stay bounded', () => {
    const sessions = new Sessions({ ttlMs: 1000, maxSessions: 3 });
    const a = sessions.create(0);
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessions.valid(a.id, 999)).toBe(true);
    expect(sessions.valid(a.id, 1000)).toBe(false);
    const b = sessions.create(0);
    sessions.end(b.id);
    expect(sessions.valid(b.id, 1)).toBe(false);
    for (let i = 0; i < 10; i++) sessions.create(1);
    expect(sessions.size).toBe(3);
  });
});

it('shows only part of a license', () => {
  const license = 'license:0123456789abcdef0123456789abcdef01234567';
  const shown = partialLicense(license)!;
  expect(shown).toBe('license:0123…4567');
  expect(shown).not.toContain('89abcdef');
  expect(partialLicense(null)).toBeNull();
});
