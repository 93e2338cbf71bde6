/** One line of the result table: the resource, the naive gate, and the resource's target. */
export interface ResultRow {
  scenario: string;
  metric: string;
  roster: number | null;
  naive: number | null;
  format: (value: number) => string;
  /** The target as written, and whether the resource's value meets it. */
  target?: { text: string; met: (value: number) => boolean };
}

export const integer = (v: number): string =>
  Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : 'never';
export const ms = (v: number): string =>
  Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} ms` : 'never';
export const fixed =
  (digits: number, unit = '') =>
  (v: number): string =>
    `${v.toFixed(digits)}${unit}`;
export const percent = (v: number): string => `${(v * 100).toFixed(v < 0.1 ? 2 : 1)} %`;
export const perSecond = (v: number): string =>
  v >= 1e6 ? `${(v / 1e6).toFixed(2)} M/s` : `${Math.round(v).toLocaleString('en-US')}/s`;
export const bytes = (v: number): string => `${Math.round(v).toLocaleString('en-US')} B`;

/** naive ÷ roster, e.g. "× 38"; "—" when either side has no value or the resource's is 0. */
export function ratio(row: ResultRow): string {
  if (row.roster === null || row.naive === null) return '—';
  if (!Number.isFinite(row.roster) || !Number.isFinite(row.naive)) return '—';
  if (row.roster === 0) return row.naive === 0 ? '=' : '—';
  const r = row.naive / row.roster;
  return `× ${r >= 10 ? Math.round(r).toLocaleString('en-US') : r.toFixed(r >= 1 ? 1 : 3)}`;
}

export function verdict(row: ResultRow): string {
  if (!row.target || row.roster === null) return '';
  return row.target.met(row.roster) ? '✓' : '✗';
}

/** A Markdown table, padded so it also reads as plain text in a terminal. */
export function renderTable(rows: readonly ResultRow[]): string {
  const header = ['scenario', 'metric', 'roster', 'naive gate', 'naive ÷ roster', 'target', ''];
  const body = rows.map((row) => [
    row.scenario,
    row.metric,
    row.roster === null ? '—' : row.format(row.roster),
    row.naive === null ? '—' : row.format(row.naive),
    ratio(row),
    row.target?.text ?? '',
    verdict(row),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i >= 2 && i <= 4 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n');
}
