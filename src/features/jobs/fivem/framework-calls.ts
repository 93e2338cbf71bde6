import { type FrameworkJob, type FrameworkJobs, gradesFrom } from '../framework-jobs';
import type { HeldJobs } from '../job-plan';

type Fn = (...args: unknown[]) => unknown;
export type LuaTable = Record<string, unknown>;

/**
 * Another resource's exports, as `exports.<resource>` gives them. What a Lua export returns reaches
 * JS as FXServer's main.js hands it over: one value as is, several as an array, and a Promise when
 * the Lua function waits (so every call is awaited).
 */
export function exportsOf(resource: string): Record<string, Fn> {
  return (globalThis as unknown as { exports: Record<string, Record<string, Fn>> }).exports[resource]!;
}

/** The first of a Lua function's values (`ok` of `return ok, err`). */
export function firstValue(result: unknown): unknown {
  return Array.isArray(result) ? result[0] : result;
}

/** A field of a table that came back from a framework, or undefined. */
export function field(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) at = at && typeof at === 'object' ? (at as LuaTable)[key] : undefined;
  return at;
}

export function numberOf(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** Entries of a table that may have come across as an object or (keys 1..n) as an array. */
export function entriesOf(value: unknown): [string, unknown][] {
  if (Array.isArray(value)) return value.map((v, i) => [String(i + 1), v]);
  return value && typeof value === 'object' ? Object.entries(value as LuaTable) : [];
}

export function jobMap(jobs: FrameworkJob[]): FrameworkJobs {
  return new Map(jobs.map((job) => [job.name, job]));
}

/**
 * Jobs from a framework's table of jobs by name, each with a `label` and `grades` keyed by grade
 * number (Qbox, QBCore and ESX all keep them so, grades from 0).
 */
export function jobsByName(jobs: unknown): FrameworkJobs {
  return jobMap(
    entriesOf(jobs).map(([name, job]) => ({
      name,
      label: String(field(job, 'label') ?? name),
      grades: gradesFrom(field(job, 'grades'), 0),
    })),
  );
}

/** The one job a character of a one-job framework holds, or null when it cannot be read. */
export function singleJob(name: unknown, grade: number | null, duty: unknown): HeldJobs | null {
  if (typeof name !== 'string' || grade === null) return null;
  return {
    primary: { job: name, grade },
    jobs: new Map([[name, grade]]),
    duty: typeof duty === 'boolean' ? duty : null,
  };
}
