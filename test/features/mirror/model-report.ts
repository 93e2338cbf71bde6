import type { Outcome } from './model-decisions';
import type { History } from './model-history';
import type { ModelResource } from './model-resource';
import type { ModelRoster } from './model-roster';

export type Phase = 'during the run' | 'after a quiet period' | 'after a long quiet period' | 'in an outage';

/** A join the resource decided otherwise than the model's data allowed. */
export interface Violation {
  /** This server's time. */
  at: number;
  phase: Phase;
  license: string;
  /** The license's memberships at the time, e.g. `mem_000004 ACTIVE in dep_lspd`. */
  memberships: string;
  /** How the resource decided: from memory (no request), or by asking the service. */
  how: 'no request' | 'a lookup';
  decided: Outcome | 'no answer' | 'a lookup';
  /** What the model's data allowed. */
  allowed: Outcome[];
  /** More than one member has held the license (an old membership and a new one). */
  sharedLicense: boolean;
}

/** `+m:ss` after `start`. */
export function sinceStart(start: number): (ms: number) => string {
  return (ms) => {
    const s = Math.round((ms - start) / 1000);
    return `+${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  };
}

/** One wrong decision in a line. */
export function describeViolation(violation: Violation, at: (ms: number) => string): string {
  const { phase, license, memberships, how, decided, allowed } = violation;
  const what = decided === 'a lookup' ? 'was looked up' : `was decided "${decided}" by ${how}`;
  return `${at(violation.at)} ${phase}: ${license} (${memberships}) ${what}; the model's data says ${allowed.join(' or ')}`;
}

/** The history as it happened: the setting, the changes, the wrong decisions, what the resource said. */
export function describeRun(
  history: History,
  roster: ModelRoster,
  resource: ModelResource,
  violations: readonly Violation[],
  start: number,
): string {
  const at = sinceStart(start);
  return [
    `${history.roster.members} members (${history.roster.rejoined} licenses also with an old TERMINATED membership), service clock ${Math.round(history.offsetMs / 1000)} s off, audit every ${history.auditSeconds} s, key ${history.perMinute}/min, gate ${JSON.stringify(history.gate)}`,
    'changes:',
    ...roster.changes.map((c) => `  ${at(c.at)} ${c.what}`),
    'wrong decisions:',
    ...violations.slice(0, 12).map((v) => `  ${describeViolation(v, at)}`),
    ...(violations.length > 12 ? [`  … and ${violations.length - 12} more`] : []),
    'the resource said:',
    ...said(
      resource.lines.filter((l) => l.level !== 'info' || /mirror|audit/.test(l.message)),
      at,
    ),
  ].join('\n');
}

/** The resource's lines, a run of one message said once with how many times. */
function said(lines: ModelResource['lines'], at: (ms: number) => string): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length && out.length < 20; ) {
    const { message, level } = lines[i]!;
    let j = i + 1;
    while (j < lines.length && lines[j]!.message === message) j++;
    out.push(`  ${at(lines[i]!.at)} ${level}: ${message}${j - i > 1 ? ` (×${j - i})` : ''}`);
    i = j;
  }
  return out;
}
