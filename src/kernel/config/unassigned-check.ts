interface JobsSettings {
  enabled: boolean;
  departments: Readonly<Record<string, { readonly job: string }>>;
  unassigned: { job: string; grade: number };
}

/**
 * Why `jobs.unassigned` cannot be used, or null. It is what a character gets when the roster
 * takes a managed job away; were it a managed job itself, every character the roster gives no job
 * would be handed that job, and its rights, by the roster. Names are compared as the frameworks
 * look jobs up (Qbox lower-cases them), so `Police` and `police` are the same job.
 */
export function unassignedProblem(jobs: JobsSettings): string | null {
  if (!jobs.enabled) return null;
  const fallback = jobs.unassigned.job.toLowerCase();
  const key = Object.keys(jobs.departments).find((k) => jobs.departments[k]!.job.toLowerCase() === fallback);
  if (key === undefined) return null;
  return `jobs.unassigned names "${jobs.unassigned.job}", the job jobs.departments.${key} manages: every character the roster gives no job would get it. Name a job no department maps to, e.g. {"job": "unemployed", "grade": 0}.`;
}
