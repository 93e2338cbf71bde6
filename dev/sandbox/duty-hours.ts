import type { MockRoster } from '../mock-roster/server';

const DAY_MS = 86_400_000;

/**
 * The duty sessions the sandbox gives a member on the mock, as [days ago, minutes on duty]: three
 * this week and one earlier in the month (the mock's own sessions are older than 30 days).
 */
const RECENT_SESSIONS: readonly (readonly [number, number])[] = [
  [1, 150],
  [3, 90],
  [6, 45],
  [20, 180],
];

/** The hours those sessions make in the last 7 and 30 days. */
export interface DutyExpected {
  week: number;
  month: number;
}

const hoursWithin = (days: number) =>
  RECENT_SESSIONS.filter(([daysAgo]) => daysAgo < days).reduce((sum, [, minutes]) => sum + minutes, 0) / 60;

export const RECENT_HOURS: DutyExpected = { week: hoursWithin(7), month: hoursWithin(30) };

/** Gives the member those sessions on the mock, counted back from `now`. */
export function addRecentDuty(mock: MockRoster, memberId: string, now = Date.now()): void {
  for (const [daysAgo, minutes] of RECENT_SESSIONS)
    mock.data.addDutySession(memberId, now - daysAgo * DAY_MS, minutes);
}

/** The `hours` command's answer for those hours (src/features/duty/fivem/hours-command.ts). */
export function hoursAnswer(name: string, expected: DutyExpected): string {
  return `${name}: ${expected.week} h on duty in the last 7 days, ${expected.month} h in the last 30 days.`;
}
