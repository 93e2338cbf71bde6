/**
 * A framework's jobs (or ox_core's groups) as the mapping reads them, whatever shape the framework
 * keeps them in. Grades are the framework's own numbers: 0-based in Qbox, QBCore and ESX,
 * 1-based in ox_core and ND_Core.
 */
export interface FrameworkGrade {
  level: number;
  /** The grade's name (Qbox, QBCore, ESX) or label (ox_core, ND_Core); may be empty. */
  name: string;
  label: string;
}

export interface FrameworkJob {
  name: string;
  label: string;
  /** Lowest level first. */
  grades: FrameworkGrade[];
}

export type FrameworkJobs = ReadonlyMap<string, FrameworkJob>;

type Raw = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Grades from a table keyed by level (`{ 0: {...} }`, `{ '0': {...} }`) or from a list whose
 * index 0 is level `base` (ox_core's label array; a Lua table keyed 1..n arrives in JS as an array
 * too, so a 1-based ND ladder looks like a list with base 1). A grade entry may be a table with
 * `name`/`label` or just its label.
 */
export function gradesFrom(raw: unknown, base: number): FrameworkGrade[] {
  const entries: [number, unknown][] = Array.isArray(raw)
    ? raw.map((entry, i) => [i + base, entry])
    : raw && typeof raw === 'object'
      ? Object.entries(raw as Raw).map(([key, entry]) => [Number(key), entry])
      : [];
  const grades: FrameworkGrade[] = [];
  for (const [key, entry] of entries) {
    if (!Number.isInteger(key) || entry === null || entry === undefined) continue;
    const fields = typeof entry === 'object' ? (entry as Raw) : { label: entry };
    // ESX keeps the level in `grade`, ND_Core in `weight` (its list is sorted, not keyed).
    const level =
      typeof fields.grade === 'number'
        ? fields.grade
        : typeof fields.weight === 'number'
          ? fields.weight
          : key;
    grades.push({ level, name: text(fields.name), label: text(fields.label) || String(fields.label ?? '') });
  }
  return grades.sort((a, b) => a.level - b.level);
}

/** The lowest grade of a job, or null when it has none. */
export function lowestGrade(job: FrameworkJob): number | null {
  return job.grades[0]?.level ?? null;
}
