import { describe, expect, it } from 'vitest';
import { DutyLedger, MAX_SESSIONS_PER_MEMBER } from '../../../src/features/duty/duty-ledger';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-03-01T12:00:00Z');

function ledgerOf(sessions: [number, number | null][]): DutyLedger {
  const ledger = new DutyLedger();
  for (const [i, [start, end]] of sessions.entries()) ledger.add('m', `s${i}`, { start, end, stored: start });
  ledger.markKnown('m');
  return ledger;
}

describe('DutyLedger on hostile sessions', () => {
  it('a session from the future (open or closed) counts nothing, and takes nothing from the rest', () => {
    const ledger = ledgerOf([
      [NOW - 3 * HOUR, NOW - HOUR],
      [NOW + 2 * HOUR, null],
      [NOW + HOUR, NOW + 5 * HOUR],
    ]);
    expect(ledger.hours('m', 7, NOW)).toBe(2);
  });

  it('overlapping sessions (the same shift recorded twice, one inside another) count their union once', () => {
    const ledger = ledgerOf([
      [NOW - 10 * HOUR, NOW - 6 * HOUR],
      [NOW - 10 * HOUR, NOW - 6 * HOUR],
      [NOW - 9 * HOUR, NOW - 7 * HOUR],
      [NOW - 7 * HOUR, NOW - 4 * HOUR],
      [NOW - 2 * HOUR, null],
      [NOW - HOUR, null],
    ]);
    expect(ledger.hours('m', 7, NOW)).toBe(8);
    // Never more hours than the window holds, whatever the service sends.
    const piled = ledgerOf(Array.from({ length: 50 }, () => [NOW - 40 * DAY, null] as [number, null]));
    expect(piled.hours('m', 7, NOW)).toBe(7 * 24);
  });

  it('keeps at most MAX_SESSIONS_PER_MEMBER sessions of a member, the newest', () => {
    const ledger = new DutyLedger();
    const count = MAX_SESSIONS_PER_MEMBER + 50;
    // One minute on duty every hour, newest last.
    for (let i = 0; i < count; i++) {
      const start = NOW - (count - i) * HOUR;
      ledger.add('m', `s${i}`, { start, end: start + 60_000, stored: start });
    }
    ledger.markKnown('m');
    // The newest MAX sessions are all within the window: each counts one minute.
    const hours = ledger.hours('m', 30, NOW)!;
    expect(hours).toBeCloseTo(MAX_SESSIONS_PER_MEMBER / 60, 1);
  });

  it('a session removed counts no more; owners tell which member holds a session', () => {
    const ledger = ledgerOf([
      [NOW - 5 * HOUR, NOW - 4 * HOUR],
      [NOW - 3 * HOUR, NOW - HOUR],
    ]);
    ledger.add('n', 'x', { start: NOW - HOUR, end: null, stored: NOW - HOUR });
    expect(ledger.owners()).toEqual(
      new Map([
        ['s0', 'm'],
        ['s1', 'm'],
        ['x', 'n'],
      ]),
    );
    expect(ledger.startedAfter('m', NOW - 4 * HOUR)).toEqual(new Set(['s1']));
    ledger.remove('m', 's1');
    expect(ledger.hours('m', 7, NOW)).toBe(1);
  });

  it('the earliest stored of the sessions still on duty, by when it was stored, not when it began', () => {
    const ledger = new DutyLedger();
    ledger.add('m', 'ended', { start: NOW - 9 * HOUR, end: NOW - 8 * HOUR, stored: NOW - 9 * HOUR });
    ledger.add('m', 'late', { start: NOW - 6 * HOUR, end: null, stored: NOW - HOUR });
    ledger.add('m', 'open', { start: NOW - 2 * HOUR, end: null, stored: NOW - 2 * HOUR });
    expect(ledger.openStoredSince('m')).toBe(NOW - 2 * HOUR);
    expect(ledger.openStoredSince('other')).toBeNull();
  });
});
