import { describe, expect, it } from 'vitest';
import { exportAnswers } from '../../../src/features/exports/exporting-feature';

const answer = (value: string) => [() => value, null] as [() => string, null];

describe('the export answers of the listed features', () => {
  it('gathers every feature’s answers, and an export two answer is the first one’s', () => {
    const jobs = { exports: { getJob: answer('jobs') } };
    const duty = { exports: { getDutyHours: answer('duty'), getJob: answer('duty') } };
    const answers = exportAnswers([{}, jobs, duty]);
    expect(Object.keys(answers).sort()).toEqual(['getDutyHours', 'getJob']);
    expect(answers.getJob?.[0]()).toBe('jobs');
    expect(answers.getDutyHours?.[0]()).toBe('duty');
  });

  it('is empty when no feature answers one', () => {
    expect(exportAnswers([{}, { start() {} }])).toEqual({});
  });
});
