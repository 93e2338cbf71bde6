import { describe, expect, it } from 'vitest';
import { DutyLedger, MAX_SESSIONS_PER_MEMBER } from '../../../src/core/duty/duty-ledger';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-03-01T12:00:00Z');

function ledgerOf(sessions: [number, number | null][]): DutyLedger {
  const ledger = new DutyLedger();
  for (const [i, [start, end]] of sessions.entries()) ledger.add('m', `s${i}`, { start, end });
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
      ledger.add('m', `s${i}`, { start, end: start + 60_000 });
    }
    ledger.markKnown('m');
    // The newest MAX sessions are all within the window: each counts one minute.
    const hours = ledger.hours('m', 30, NOW)!;
    expect(hours).toBeCloseTo(MAX_SESSIONS_PER_MEMBER / 60, 1);
  });
});
