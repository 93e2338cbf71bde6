import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../../src/kernel/config';

const convars = {
  apiKey: 'rk_abc123_s3cr3tvalue',
  baseUrl: 'https://roster.community.test',
  logLevel: '',
  trainingApiKey: '',
};
const load = (jobs: Record<string, unknown>) => loadSettings(JSON.stringify({ jobs }), convars);
const departments = { LSPD: { job: 'police' }, SAFR: { job: 'ambulance' } };

describe('jobs.unassigned', () => {
  it('naming a job a department maps to is refused, whatever its case, with the key and the reason', () => {
    for (const job of ['ambulance', 'Ambulance']) {
      const result = load({ enabled: true, departments, unassigned: { job, grade: 0 } });
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.problems).toEqual([
        `jobs.unassigned names "${job}", the job jobs.departments.SAFR manages: every character the roster gives no job would get it. Name a job no department maps to, e.g. {"job": "unemployed", "grade": 0}.`,
      ]);
    }
  });

  it('is accepted when it is no managed job, or while job sync is off', () => {
    expect(load({ enabled: true, departments }).ok).toBe(true);
    expect(load({ enabled: true, departments, unassigned: { job: 'taxi', grade: 0 } }).ok).toBe(true);
    expect(load({ enabled: false, departments, unassigned: { job: 'police', grade: 0 } }).ok).toBe(true);
  });

  it('the default unemployed is refused once a department maps to it', () => {
    const result = load({ enabled: true, departments: { CIV: { job: 'unemployed' } } });
    expect(result.ok).toBe(false);
  });
});
