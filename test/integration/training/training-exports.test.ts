/**
 * The training exports, called by a JS resource through the real export path, against the
 * bundle in the emulator and the mock learning service over loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  DISCORD_IDS,
  discord,
  eventually,
  plain,
  startTrainingHarness,
  type TrainingHarness,
  trainingReady,
} from './training-harness';

type Fn = (...args: unknown[]) => unknown;

let h: TrainingHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const call = (harness: TrainingHarness, name: string, ...args: unknown[]) =>
  (harness.caller.exports.roster![name] as Fn)(...args);

describe('training exports', () => {
  it('getTraining gives linked and listed completions only; hasCompletedCourse by id or title', async () => {
    h = await startTrainingHarness();
    await trainingReady(h);
    const id = await h.join('Alice', [discord(0)]);
    const police = h.learning.data.course('Police Academy')!;
    const training = await eventually(() => plain(call(h!, 'getTraining', id)) ?? undefined);
    expect(training).toEqual({
      linked: true,
      completions: [{ courseId: police.id, title: 'Police Academy', completedAt: expect.any(String) }],
    });
    // Advanced Driving is unlisted: completed, but never shown.
    expect(JSON.stringify(training)).not.toMatch(/Advanced Driving/);
    expect(call(h, 'hasCompletedCourse', id, 'police academy')).toBe(true);
    expect(call(h, 'hasCompletedCourse', String(id), police.id.toUpperCase())).toBe(true);
    expect(call(h, 'hasCompletedCourse', id, 'Fire Academy')).toBe(false);
    expect(call(h, 'getTraining', 9999)).toBeNull();
  });
});

describe('isQualified', () => {
  it('needs the roster department and every course training.departmentCourses lists for it', async () => {
    h = await startTrainingHarness({
      training: { departmentCourses: { lspd: ['Police Academy'], SAFR: [] } },
    });
    await trainingReady(h);
    const trained = h.memberIn('LSPD');
    const untrained = h.memberIn('LSPD');
    const fire = h.memberIn('SAFR');
    const join = async (name: string, member: typeof trained, extra: string[]) => {
      const decision = await h!.connect(name, extra, member).decision;
      if (!decision.admitted) throw new Error(decision.reason);
      return decision.id;
    };
    const a = await join('A', trained, [discord(0)]);
    const b = await join('B', untrained, [discord(1)]);
    const c = await join('C', fire, [discord(2)]);
    await eventually(
      () => call(h!, 'getTraining', a) && call(h!, 'getTraining', b) && call(h!, 'getTraining', c),
    );
    // Both sides loaded: the roster's member record and the training data.
    await eventually(() => [a, b, c].every((id) => call(h!, 'getMember', id) !== null));
    expect(call(h, 'isQualified', a, 'LSPD')).toBe(true);
    const department = h.roster.data.data.departments.find((d) => d.shortName === 'LSPD')!;
    expect(call(h, 'isQualified', a, department.name.toUpperCase())).toBe(true);
    expect(call(h, 'isQualified', a, department.id)).toBe(true);
    expect(call(h, 'isQualified', b, 'lspd')).toBe(false);
    expect(call(h, 'isQualified', a, 'SAFR')).toBe(false);
    // In the department and no course required for it.
    expect(call(h, 'isQualified', c, 'safr')).toBe(true);
    for (const bad of [
      [],
      [a],
      [a, ''],
      [a, null],
      ['x', 'LSPD'],
      [-1, 'LSPD'],
      [a, { d: 1 }],
      [9999, 'LSPD'],
    ])
      expect(call(h, 'isQualified', ...bad)).toBe(false);
  });
  it('a departmentCourses key that is no department fails closed, is named at start and in doctor', async () => {
    // "LSPDD" was meant to be LSPD: an officer without the course must not pass.
    h = await startTrainingHarness({ training: { departmentCourses: { LSPDD: ['Fire Academy'] } } });
    await trainingReady(h);
    const officer = h.memberIn('LSPD');
    const decision = await h.connect('A', [discord(0)], officer).decision;
    if (!decision.admitted) throw new Error(decision.reason);
    const a = decision.id;
    await eventually(() => call(h!, 'getTraining', a) && call(h!, 'getMember', a) !== null);
    expect(call(h, 'isInDepartment', a, 'LSPD')).toBe(true);
    expect(call(h, 'hasCompletedCourse', a, 'Fire Academy')).toBe(false);
    expect(call(h, 'isQualified', a, 'LSPD')).toBe(false);
    await eventually(() =>
      /training\.departmentCourses has "LSPDD", which is no department/.test(h!.logText()),
    );
    h.server.executeCommand('roster doctor');
    await eventually(() => /✗ training\.departmentCourses has "LSPDD"/.test(h!.logText()));
  });
});

describe('players who cannot be matched', () => {
  it('an unlinked player and one without a discord identifier read as not linked', async () => {
    h = await startTrainingHarness();
    await trainingReady(h);
    const unlinked = await h.join('U', ['discord:300000000000000077']);
    const none = await h.join('N', ['fivem:55']);
    await eventually(() => call(h!, 'getTraining', unlinked) ?? undefined);
    expect(plain(call(h, 'getTraining', unlinked))).toEqual({ linked: false, completions: [] });
    expect(plain(call(h, 'getTraining', none))).toEqual({ linked: false, completions: [] });
    expect(call(h, 'hasCompletedCourse', unlinked, 'Police Academy')).toBe(false);
  });
});

describe('bad input', () => {
  it('gives false/null/[] and never throws', async () => {
    h = await startTrainingHarness();
    await trainingReady(h);
    const id = await h.join('Alice', [discord(0)]);
    const odd = [undefined, null, 0, -3, 1.5, 'abc', '', {}, [], true, Number.NaN, '1e3'];
    for (const value of odd) {
      expect(call(h, 'getTraining', value)).toBeNull();
      expect(call(h, 'hasCompletedCourse', value, 'Police Academy')).toBe(false);
      expect(call(h, 'hasCompletedCourse', id, value)).toBe(false);
      expect(await call(h, 'getTrainingProgress', value)).toBeNull();
      const assigned = plain(await call(h, 'assignCourse', value, 'Police Academy')) as { enrolled: boolean };
      expect(assigned.enrolled).toBe(false);
    }
    for (const days of [0, -1, 1.5, 'x', {}, 366, true])
      expect(plain(await call(h, 'getExpiringCertificates', days))).toEqual([]);
    expect(h.logText()).not.toMatch(/SCRIPT ERROR|export \w+ failed/);
  });
});

describe('assignCourse', () => {
  it('enrolls a linked player: 201 created, 200 already enrolled; clear reasons otherwise', async () => {
    h = await startTrainingHarness();
    await trainingReady(h);
    const linked = await h.join('Eve', [discord(2)]);
    const unlinked = await h.join('Ned', ['discord:300000000000000099']);
    const fire = h.learning.data.course('Fire Academy')!;
    expect(plain(await call(h, 'assignCourse', linked, fire.id))).toEqual({ enrolled: true, created: true });
    expect(plain(await call(h, 'assignCourse', String(linked), fire.id))).toEqual({
      enrolled: true,
      created: false,
    });
    // User 2 was already assigned Police Academy; a title works too.
    expect(plain(await call(h, 'assignCourse', linked, 'police academy'))).toEqual({
      enrolled: true,
      created: false,
    });
    const sub = h.learning.data.users[2]!.user_sub;
    expect(
      h.learning.data.notifications.filter((n) => n.user_sub === sub && n.course_id === fire.id),
    ).toHaveLength(1);
    // Unlisted courses are still assignable.
    expect(plain(await call(h, 'assignCourse', linked, 'Advanced Driving'))).toMatchObject({
      enrolled: true,
    });
    const legacy = h.learning.data.course('Legacy Course')!;
    expect(plain(await call(h, 'assignCourse', linked, legacy.id))).toEqual({
      enrolled: false,
      reason: expect.stringMatching(/does not exist or is not published/),
    });
    expect(plain(await call(h, 'assignCourse', linked, 'No Such Course'))).toEqual({
      enrolled: false,
      reason: expect.stringMatching(/does not exist or is not published/),
    });
    expect(plain(await call(h, 'assignCourse', unlinked, fire.id))).toEqual({
      enrolled: false,
      reason: expect.stringMatching(/not linked/),
    });
  });

  it('with a read-only key says the key lacks enroll:write', async () => {
    h = await startTrainingHarness({ keyName: 'read' });
    await trainingReady(h);
    const linked = await h.join('Eve', [discord(2)]);
    const answer = plain(await call(h, 'assignCourse', linked, 'Fire Academy')) as { reason: string };
    expect(answer).toMatchObject({ enrolled: false });
    expect(answer.reason).toMatch(/lacks the `enroll:write` scope/);
  });
});

describe('getExpiringCertificates', () => {
  it('lists linked players’ active certificates within the days, online ones mapped to src', async () => {
    h = await startTrainingHarness();
    await trainingReady(h);
    const alice = await h.join('Alice', [discord(0)]);
    const all = plain(await call(h, 'getExpiringCertificates')) as {
      discordId: string;
      src: number | null;
      title: string;
      listed: boolean;
    }[];
    // Default 30 days: user 0 Police (+10 d, online), user 1 Fire (+25 d); revoked, expired, unlinked and +60 d left out.
    expect(all.map((c) => [c.discordId, c.title, c.src])).toEqual([
      [DISCORD_IDS[0], 'Police Academy', alice],
      [DISCORD_IDS[1], 'Fire Academy', null],
    ]);
    const week = plain(await call(h, 'getExpiringCertificates', 7)) as unknown[];
    expect(week).toEqual([]);
    const sixty = plain(await call(h, 'getExpiringCertificates', 61)) as { title: string; listed: boolean }[];
    expect(sixty.find((c) => c.title === 'Advanced Driving')?.listed).toBe(false);
  });
});

describe('getTrainingProgress', () => {
  it('gives experience, level and badges with the gamification flag, null without it', async () => {
    h = await startTrainingHarness();
    await trainingReady(h);
    const alice = await h.join('Alice', [discord(0)]);
    const unlinked = await h.join('Ned', ['discord:300000000000000099']);
    const expected = h.learning.data.gamificationOf(h.learning.data.users[0]!.user_sub);
    const progress = plain(await call(h, 'getTrainingProgress', alice)) as Record<string, unknown>;
    expect(progress).toMatchObject({ experience: expected.xp, level: expected.level });
    expect((progress.badges as { name: string }[]).map((b) => b.name)).toContain('Police Academy Graduate');
    expect(await call(h, 'getTrainingProgress', unlinked)).toBeNull();
    h.learning.faults.flagOff('gamification');
    // The flag is read from the key identity; doctor re-reads it.
    h.server.executeCommand('roster doctor');
    await eventually(() => h!.logText().includes('`gamification` flag is off'));
    expect(await call(h, 'getTrainingProgress', alice)).toBeNull();
  });
});

describe('training off', () => {
  it('without a training key the exports exist and give empty answers; one log line', async () => {
    h = await startTrainingHarness({ keyName: null });
    await eventually(() => h!.logText().includes('connected to the roster'));
    const id = await h.join('Alice', [discord(0)]);
    expect(call(h, 'getTraining', id)).toBeNull();
    expect(call(h, 'hasCompletedCourse', id, 'Police Academy')).toBe(false);
    expect(call(h, 'isQualified', id, 'LSPD')).toBe(false);
    expect(plain(await call(h, 'getExpiringCertificates'))).toEqual([]);
    expect(plain(await call(h, 'assignCourse', id, 'x'))).toEqual({
      enrolled: false,
      reason: 'training is off on this server',
    });
    expect(await call(h, 'getTrainingProgress', id)).toBeNull();
    const lines = h.server.log.of('roster').filter((l) => /training/i.test(l));
    expect(lines).toEqual([
      expect.stringMatching(/training checks are off \(roster_training_api_key is not set\)/),
    ]);
    expect(h.learning.counters.total).toBe(0);
  });

  it('required courses without a training key fail closed: players refused, the problem named', async () => {
    h = await startTrainingHarness({ keyName: null, gate: { requireCourses: ['Police Academy'] } });
    const decision = await h.connect('Alice', [discord(0)]).decision;
    expect(!decision.admitted && decision.reason).toMatch(/roster check is not set up/);
    expect(h.logText()).toMatch(/gate\.requireCourses is set, but the training side is off/);
    expect(call(h, 'getTraining', 1)).toBeNull();
  });

  it('with training.enabled false nothing runs', async () => {
    h = await startTrainingHarness({ training: { enabled: false } });
    await eventually(() => h!.logText().includes('connected to the roster'));
    await h.join('Alice', [discord(0)]);
    expect(h.server.log.of('roster').filter((l) => /training/i.test(l))).toEqual([
      expect.stringMatching(/training checks are off \(training.enabled is false\)/),
    ]);
    expect(h.learning.counters.total).toBe(0);
  });
});
