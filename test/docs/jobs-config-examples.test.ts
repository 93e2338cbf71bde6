import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/kernel/config';

// Every config.json example of the job sync page, loaded as the resource loads config.json.
const page = readFileSync(path.resolve(import.meta.dirname, '../../docs/jobs.md'), 'utf8');
const examples = [...page.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);
const convars = {
  apiKey: 'rk_abc123_s3cr3tvalue',
  baseUrl: 'https://roster.community.test',
  logLevel: '',
  trainingApiKey: '',
};

describe("the job sync page's examples", () => {
  it('are there, one per framework', () => {
    expect(examples.length).toBe(5);
  });

  it.each(examples.map((text, i) => [i, text] as const))('example %i loads with job sync on', (_i, text) => {
    const result = loadSettings(text, convars);
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(result.settings.config.jobs.enabled).toBe(true);
    expect(Object.keys(result.settings.config.jobs.departments).length).toBeGreaterThan(0);
  });
});
