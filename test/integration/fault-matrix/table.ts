import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Check } from './cells';
import { DEADLINE_MS } from './scale';

/** The table's columns in order: the cell each row's outcome has, its title, and what its test asserts. */
export const COLUMNS = [
  {
    key: 'deadline',
    title: `deadline (≤ ${DEADLINE_MS / 1000} s)`,
    asserts: 'every deferral ends within gate.timeoutSeconds + 1 s',
  },
  { key: 'policy', title: 'policy', asserts: 'decisions follow gate.onError' },
  { key: 'limits', title: 'limits', asserts: "the service never gets more than the key's limit" },
  { key: 'crash', title: 'no crash', asserts: 'nothing is thrown unhandled' },
  {
    key: 'recovery',
    title: 'recovery',
    asserts: 'a new player is decided from the roster (learning rows: the learning service) again',
  },
  {
    key: 'online',
    title: 'online players',
    asserts: 'online players keep their data (learning rows: their training) and are back in step',
  },
  { key: 'key', title: 'no key', asserts: 'the key appears nowhere' },
] as const;
export type Column = (typeof COLUMNS)[number]['key'];

/** What a row measured: one cell per column. */
export type RowOutcome = { fault: string; onError: string } & Record<Column, Check>;
/** A row that did not run to the end. */
export interface RowError {
  fault: string;
  onError: string;
  error: string;
}

const cell = (check: Check) => `${check.ok ? '✓' : '✗'} ${check.cell}`;

/**
 * The matrix as a markdown table, the legend (each side's sentences about its rows), then every
 * problem a row saw, from what the rows measured.
 */
export function matrixMarkdown(
  outcomes: readonly (RowOutcome | RowError)[],
  legend: readonly string[],
): string {
  const lines = [
    `| fault | onError | ${COLUMNS.map(({ title }) => title).join(' | ')} |`,
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
      `| ${outcome.fault} | ${outcome.onError} | ${COLUMNS.map(({ key }) => cell(outcome[key])).join(' | ')} |`,
    );
    for (const { key, title } of COLUMNS) {
      for (const problem of outcome[key].problems)
        notes.push(`- ${outcome.fault} (${outcome.onError}), ${title}: ${problem}`);
    }
  }
  return [...lines, '', legend.join(' '), ...(notes.length > 0 ? ['', 'Problems:', ...notes] : [])].join(
    '\n',
  );
}

/** Writes the table to the OS temp dir; returns the path. */
export function writeMatrix(markdown: string): string {
  const path = join(tmpdir(), 'roster-fault-matrix.md');
  writeFileSync(path, `# Fault matrix\n\n${markdown}\n`);
  return path;
}
