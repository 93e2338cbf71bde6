import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockLearning, startMockLearning } from '../../../dev/mock-learning/server';
import { call, fakeClock } from './http';

let mock: MockLearning;
const clock = fakeClock();
beforeAll(async () => {
  mock = await startMockLearning({ now: clock.now });
});
afterAll(() => mock.close());

const enroll = (body: unknown, contentType?: string | null) =>
  call(mock, '/enrollments', { method: 'POST', body, ...(contentType !== undefined ? { contentType } : {}) });

describe('mock learning enrollments', () => {
  it('creates with 201, then answers the same user and course with 200 and the same record', async () => {
    const course = mock.data.course('EMS First Responder')!;
    const user_sub = mock.data.users[6]!.user_sub;
    const first = await enroll({ course_id: course.id, user_sub });
    expect(first.status).toBe(201);
    expect(first.json.enrollment).toEqual({
      id: expect.stringMatching(/^enr_/),
      course_id: course.id,
      user_sub,
      status: 'assigned',
      enrolled_at: new Date(clock.now()).toISOString(),
      completed_at: null,
    });
    expect(mock.data.notifications.at(-1)).toMatchObject({
      kind: 'assigned',
      user_sub,
      course_id: course.id,
    });
    const notified = mock.data.notifications.length;

    const again = await enroll({ course_id: course.id, user_sub });
    expect(again.status).toBe(200);
    expect(again.json.enrollment).toEqual(first.json.enrollment);
    expect(mock.data.notifications).toHaveLength(notified);
  });

  it('answers 200 with the existing record for a completed enrollment (unlisted course too)', async () => {
    const course = mock.data.course('Advanced Driving')!;
    const reply = await enroll({ course_id: course.id, user_sub: mock.data.users[0]!.user_sub });
    expect(reply.status).toBe(200);
    expect(reply.json.enrollment.status).toBe('completed');
  });

  it('answers 404 course_not_found for an unpublished or unknown course', async () => {
    const user_sub = mock.data.users[5]!.user_sub;
    const legacy = mock.data.course('Legacy Course')!;
    for (const course_id of [legacy.id, '00000000-0000-4000-8000-000000000000']) {
      const reply = await enroll({ course_id, user_sub });
      expect(reply.status).toBe(404);
      expect(reply.json.error.code).toBe('course_not_found');
    }
  });

  it('answers 404 user_not_found for a user who is not in the organisation', async () => {
    const reply = await enroll({ course_id: mock.data.course('Fire Academy')!.id, user_sub: 'sub_nobody' });
    expect(reply.status).toBe(404);
    expect(reply.json.error.code).toBe('user_not_found');
  });

  it.each([
    ['a non-JSON Content-Type', '{"course_id":"x"}', 'text/plain', 'Content-Type'],
    ['broken JSON', '{"course_id":', undefined, 'body'],
    ['an array', [], undefined, 'body'],
    ['no course_id', { user_sub: 'sub_x' }, undefined, 'course_id'],
    ['a course_id that is no uuid', { course_id: 'police', user_sub: 'sub_x' }, undefined, 'course_id'],
    ['no user_sub', { course_id: '00000000-0000-4000-8000-000000000000' }, undefined, 'user_sub'],
    [
      'an empty user_sub',
      { course_id: '00000000-0000-4000-8000-000000000000', user_sub: ' ' },
      undefined,
      'user_sub',
    ],
  ])('rejects %s with 422 naming the field', async (_label, body, contentType, field) => {
    const reply = await enroll(body, contentType);
    expect(reply.status).toBe(422);
    expect(reply.json.error).toMatchObject({ code: 'validation_error', details: { field } });
  });
});
