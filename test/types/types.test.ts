import { describe, expectTypeOf, it } from 'vitest';
import type * as Model from '../../src/roster/model.js';
import type {
  AssignCourseResult,
  Department,
  ExpiringCertificate,
  Member,
  PublicMember,
  Rank,
  RosterEventHandler,
  RosterEvents,
  RosterExports,
  RosterExportsGlobal,
  RosterPlayerState,
  Training,
  TrainingProgress,
} from '../../types/index.js';

// These assertions are checked by `tsc --noEmit`; a wrong declaration fails the type-check.

describe('published types', () => {
  it('hand out the same roster shapes as the resource itself', () => {
    expectTypeOf<Member>().toEqualTypeOf<Model.Member>();
    expectTypeOf<Department>().toEqualTypeOf<Model.Department>();
    expectTypeOf<Rank>().toEqualTypeOf<Model.Rank>();
  });

  it('type the synchronous exports as plain values', () => {
    expectTypeOf<RosterExports['hasMinRank']>().parameters.toEqualTypeOf<
      [src: number | string, department: string, rank: string]
    >();
    expectTypeOf<RosterExports['hasMinRank']>().returns.toEqualTypeOf<boolean>();
    expectTypeOf<RosterExports['getMember']>().returns.toEqualTypeOf<Member | null>();
    expectTypeOf<RosterExports['getDepartments']>().returns.toEqualTypeOf<Department[]>();
    expectTypeOf<RosterExports['getRank']>().toBeCallableWith(1);
    expectTypeOf<RosterExports['getRank']>().toBeCallableWith('1', 'LSPD');
    expectTypeOf<RosterExports['getTraining']>().returns.toEqualTypeOf<Training | null>();
    expectTypeOf<RosterExports['getPriority']>().returns.toEqualTypeOf<number>();
    expectTypeOf<RosterExports['lookupPriority']>().returns.toEqualTypeOf<Promise<number>>();
    expectTypeOf<RosterExports['getDutyHours']>().toBeCallableWith(1);
    expectTypeOf<RosterExports['getDutyHours']>().toBeCallableWith('1', 30);
    expectTypeOf<RosterExports['getDutyHours']>().returns.toEqualTypeOf<number | null>();
  });

  it('type the asynchronous exports as promises', () => {
    expectTypeOf<RosterExports['lookupLicense']>().returns.toEqualTypeOf<Promise<Member | null>>();
    expectTypeOf<RosterExports['refreshPlayer']>().returns.toEqualTypeOf<Promise<Member | null>>();
    expectTypeOf<RosterExports['setRank']>().returns.toEqualTypeOf<
      Promise<{ ok: true; member: Member } | { ok: false; reason: string }>
    >();
    expectTypeOf<RosterExports['setRank']>().toBeCallableWith(1, 'LSPD', 'Sergeant', 0);
    // The actor is required: a missing one is refused at run time, never taken for the console.
    expectTypeOf<Parameters<RosterExports['setRank']>['length']>().toEqualTypeOf<4>();
    expectTypeOf<RosterExports['setRank']>().toBeCallableWith('1', 'LSPD', 'Sergeant', 2);
    expectTypeOf<RosterExports['assignCourse']>().returns.toEqualTypeOf<Promise<AssignCourseResult>>();
    expectTypeOf<RosterExports['getExpiringCertificates']>().toBeCallableWith();
    expectTypeOf<RosterExports['getExpiringCertificates']>().returns.toEqualTypeOf<
      Promise<ExpiringCertificate[]>
    >();
    expectTypeOf<RosterExports['getTrainingProgress']>().returns.toEqualTypeOf<
      Promise<TrainingProgress | null>
    >();
  });

  it('make assignCourse a tagged result', () => {
    expectTypeOf<Extract<AssignCourseResult, { enrolled: true }>>().toEqualTypeOf<{
      enrolled: true;
      created: boolean;
    }>();
    expectTypeOf<Extract<AssignCourseResult, { enrolled: false }>>().toEqualTypeOf<{
      enrolled: false;
      reason: string;
    }>();
  });

  it('give each event its argument tuple', () => {
    expectTypeOf<RosterEvents['roster:playerUpdated']>().toEqualTypeOf<
      [src: number, member: Member | null, previous: Member | null]
    >();
    expectTypeOf<RosterEvents['roster:playerLoaded']>().toEqualTypeOf<[src: number, member: Member | null]>();
    expectTypeOf<RosterEvents['roster:trainingUpdated']>().toEqualTypeOf<
      [src: number, training: Training | null]
    >();
    expectTypeOf<RosterEventHandler<'roster:playerUpdated'>>().parameters.toEqualTypeOf<
      RosterEvents['roster:playerUpdated']
    >();
  });

  it('keep the license out of the state bag', () => {
    expectTypeOf<RosterPlayerState['roster']>().toEqualTypeOf<Omit<Member, 'license'> | null>();
    expectTypeOf<PublicMember>().not.toHaveProperty('license');
    expectTypeOf<RosterPlayerState['training']>().toEqualTypeOf<Training | null>();
  });

  it('type exports.roster through RosterExportsGlobal', () => {
    expectTypeOf<RosterExportsGlobal['roster']>().toEqualTypeOf<RosterExports>();
  });
});
