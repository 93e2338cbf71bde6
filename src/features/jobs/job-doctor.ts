import type { JobMapping } from './job-mapping';

/**
 * `roster doctor`'s job sync lines: the framework found and, per configured department, its job
 * and every rank → grade with ✓, or ✗ with why the mapping is left out.
 */
export function jobDoctorLines(
  framework: string | null,
  state: string,
  mapping: JobMapping | null,
): string[] {
  if (!framework) return [`✗ jobs: no framework found (${state})`];
  const mark = !mapping ? '…' : mapping.rows.every((row) => row.ok) && mapping.unassignedOk ? '✓' : '✗';
  const lines = [`${mark} jobs: framework ${framework}${state ? ` (${state})` : ''}`];
  for (const row of mapping?.rows ?? []) {
    const ranks = row.ranks.map(
      (r) => `${r.rank}→${r.grade}${r.source === 'listed' ? '' : ` (${r.source})`}`,
    );
    if (row.ok) lines.push(`  ✓ ${row.key} → ${row.job}: ${ranks.join(', ')}`);
    else lines.push(`  ✗ ${row.key} → ${row.job}: left out: ${row.problems.join('; ')}`);
  }
  if (mapping?.unassignedProblem)
    lines.push(
      `  ✗ jobs.unassigned: ${mapping.unassignedProblem}; a character losing a managed job keeps it`,
    );
  return lines;
}

/** One console line per department whose mapping is left out. */
export function mappingProblems(mapping: JobMapping): string[] {
  const lines = mapping.rows
    .filter((row) => !row.ok)
    .map((row) => `jobs.departments.${row.key} (${row.job}) is left out: ${row.problems.join('; ')}.`);
  if (mapping.unassignedProblem)
    lines.push(`jobs.unassigned: ${mapping.unassignedProblem}; a character losing a managed job keeps it.`);
  return lines;
}
