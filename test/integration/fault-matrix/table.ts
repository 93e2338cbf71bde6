import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Column, DEADLINE_MS, type RowOutcome } from './run';

const COLUMNS: readonly (readonly [Column, string])[] = [
  ['deadline', `deadline (≤ ${DEADLINE_MS / 1000} s)`],
  ['policy', 'policy'],
  ['limits', 'limits'],
  ['crash', 'no crash'],
  ['recovery', 'recovery'],
  ['online', 'online players'],
  ['key', 'no key'],
];

const cell = (check: RowOutcome['deadline']) => `${check.ok ? '✓' : '✗'} ${check.cell}`;

/** The matrix as a markdown table, then every problem a row saw, from what the rows measured. */
export function matrixMarkdown(
  outcomes: readonly (RowOutcome | { fault: string; onError: string; error: string })[],
) {
  const lines = [
    `| fault | onError | ${COLUMNS.map(([, title]) => title).join(' | ')} |`,
    `|---|---|${COLUMNS.map(() => '---').join('|')}|`,
  ];
  const notes: string[] = [];
  for (const outcome of outcomes) {
    if ('error' in outcome) {
      lines.push(`| ${outcome.fault} | ${outcome.onError} | ${COLUMNS.map(() => '—').join(' | ')} |`);
      notes.push(`- ${outcome.fault} (${outcome.onError}): the row did not run to the end: ${outcome.error}`);
      continue;
    }
    lines.push(
      `| ${outcome.fault} | ${outcome.onError} | ${COLUMNS.map(([key]) => cell(outcome[key])).join(' | ')} |`,
    );
    for (const [key, title] of COLUMNS) {
      for (const problem of outcome[key].problems)
        notes.push(`- ${outcome.fault} (${outcome.onError}), ${title}: ${problem}`);
    }
  }
  const legend =
    'deadline: longest wait of any connecting player; policy: players connecting during the fault; limits: most requests the service saw in any 60 s span against the ' +
    "key's per-minute limit, and after each 429 the client had, requests it still wrote before that 429's pause " +
    'was over (both timed inside the process, where the client writes and reads); recovery: time ' +
    "from the fault's end to a new player decided from the roster; " +
    'online players: players online through the fault (and members admitted during it) keep their data ' +
    'and are back in step afterwards, export and state bag alike; no key: log, events, state bags, client ' +
    'events and files searched for the key. Rows marked "learning:" are faults of the learning service ' +
    'with `gate.requireCourses` set and the roster healthy: policy: a trained, an untrained and an ' +
    'unlinked player joining twice during the fault (never refused as untrained because of it; ' +
    '`cached` may refuse the untrained one on completions known before); limits: requests the learning ' +
    'service saw against `training.perMinute` (and the most in any 10 s); recovery: time to a trained ' +
    "player admitted on the service's answer, then the others decided by it too; online players: their " +
    'training (export, state bag, `hasCompletedCourse`) kept through the fault; no key: both keys.';
  return [...lines, '', legend, ...(notes.length > 0 ? ['', 'Problems:', ...notes] : [])].join('\n');
}

/** Writes the table to the OS temp dir; returns the path. */
export function writeMatrix(markdown: string): string {
  const path = join(tmpdir(), 'roster-fault-matrix.md');
  writeFileSync(path, `# Fault matrix\n\n${markdown}\n`);
  return path;
}
