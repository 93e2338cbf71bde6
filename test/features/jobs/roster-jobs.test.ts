import { describe, expect, it } from 'vitest';
import type { JobMapping, RankGrade } from '../../../src/features/jobs/job-mapping';
import { rosterJobsOf } from '../../../src/features/jobs/roster-jobs';
import type { Member } from '../../../src/roster/model';

/** Chief, Sergeant, Officer, Cadet (most senior first) with their positions under `order`. */
function mapping(order: 'top-down' | 'bottom-up', withRanks = true): JobMapping {
  const names = ['Chief', 'Sergeant', 'Officer', 'Cadet'];
  const ranks: RankGrade[] = names.map((rank, i) => ({
    rankId: rank.toLowerCase(),
    rank,
    position: order === 'top-down' ? i + 1 : names.length - i,
    grade: names.length - 1 - i,
    source: 'listed',
  }));
  return {
    departments: [
      { departmentId: 'd1', department: 'LSPD', job: 'police', ranks: withRanks ? ranks : [], lowest: 0 },
    ],
    rows: [],
    managed: new Set(['police']),
    unassignedOk: true,
    unassignedProblem: null,
  };
}
const member = (rank: { id: string; name: string; position: number } | null): Member => ({
  id: 'm1',
  name: 'M',
  status: 'ACTIVE',
  license: 'license:1',
  departments: [{ id: 'd1', name: 'Police', shortName: 'LSPD', primary: true, callsign: null, rank }],
});
const gradeOf = (order: 'top-down' | 'bottom-up', rank: Parameters<typeof member>[0]) =>
  rosterJobsOf(member(rank), mapping(order), () => true)?.primary.grade;

describe('rosterJobsOf', () => {
  it('a rank created since the ranks were read gets the grade of the rank it pushed down, not the lowest', () => {
    // "Corporal" in below Sergeant: top-down it takes Officer's old position 3 (Officer moves to 4).
    expect(gradeOf('top-down', { id: 'corporal', name: 'Corporal', position: 3 })).toBe(1);
    // Bottom-up (1 the most junior) it takes Sergeant's old position 3 (Sergeant moves to 4).
    expect(gradeOf('bottom-up', { id: 'corporal', name: 'Corporal', position: 3 })).toBe(1);
    // A new most junior rank, and no rank at all: the lowest grade.
    expect(gradeOf('top-down', { id: 'probie', name: 'Probie', position: 5 })).toBe(0);
    expect(gradeOf('bottom-up', { id: 'probie', name: 'Probie', position: 1 })).toBe(0);
    expect(gradeOf('top-down', null)).toBe(0);
    expect(gradeOf('top-down', { id: 'sergeant', name: 'Sergeant', position: 2 })).toBe(2);
  });

  it('a department with no ranks on the roster gives the job’s lowest grade', () => {
    expect(rosterJobsOf(member(null), mapping('top-down', false), () => true)?.primary).toEqual({
      job: 'police',
      grade: 0,
    });
  });
});
