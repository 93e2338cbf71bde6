import { LearningApiError, validationError } from '../api-error';
import { listOf, pagedList, ref } from '../openapi-schemas';
import { PAGING_PARAMETERS, paginate } from '../paging';
import { API, needs, type Route } from '../route';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Key identity, courses, enrollment summary, completions, enrollments. */
export const partnerRoutes: Route[] = [
  {
    method: 'GET',
    pattern: `${API}/me`,
    access: { kind: 'key' },
    summary: 'Key identity: tenant, organization, scopes and flags (verifies a key)',
    doc: { responses: { '200': ['The key is valid', ref('KeyIdentity')] } },
    handle: ({ key, store }) => {
      const { tenant_id, alias, name, edition, flags } = store.org;
      return { body: { tenant_id, org: { alias, name, edition }, scopes: key!.scopes, flags: { ...flags } } };
    },
  },
  {
    method: 'GET',
    pattern: `${API}/courses`,
    access: needs('read'),
    summary: 'Published courses (unlisted ones included, with listed: false)',
    doc: { responses: { '200': ['Published courses', listOf('courses', 'Course')] } },
    handle: ({ store }) => ({
      body: {
        courses: store.courses
          .filter((c) => c.published)
          .map(({ id, title, description, allow_self_enroll, difficulty, est_minutes, listed }) => ({
            id,
            title,
            description,
            allow_self_enroll,
            difficulty,
            est_minutes,
            listed,
          })),
      },
    }),
  },
  {
    method: 'GET',
    pattern: `${API}/enrollments/summary`,
    access: needs('read'),
    summary: 'Organization-wide enrollment counts',
    doc: { responses: { '200': ['Counts', ref('EnrollmentSummary')] } },
    handle: ({ store }) => {
      const by_status = { assigned: 0, in_progress: 0, completed: 0 };
      for (const e of store.enrollments) by_status[e.status]++;
      const courses = store.courses
        .filter((c) => c.published)
        .map((c) => {
          const of = store.enrollments.filter((e) => e.course_id === c.id);
          return {
            course_id: c.id,
            title: c.title,
            enrolled: of.length,
            completed: of.filter((e) => e.status === 'completed').length,
          };
        });
      return { body: { total: store.enrollments.length, by_status, courses } };
    },
  },
  {
    method: 'GET',
    pattern: `${API}/completions`,
    access: needs('read'),
    summary: 'Completions, oldest first; follow next_page while has_more',
    doc: {
      parameters: [
        ...PAGING_PARAMETERS,
        {
          name: 'since',
          in: 'query',
          schema: { type: 'string', format: 'date-time' },
          description: 'Only completions after this instant (exclusive)',
        },
      ],
      responses: { '200': ['A page of completions', pagedList('completions', 'Completion')] },
    },
    handle: ({ store, url, pageSize }) => {
      const since = url.searchParams.get('since');
      const after = since === null ? null : Date.parse(since);
      if (after !== null && Number.isNaN(after))
        throw validationError('since', 'must be an ISO 8601 date-time');
      const all = store.completions.filter((c) => after === null || Date.parse(c.completed_at) > after);
      const { items, ...meta } = paginate(url, all, pageSize);
      return { body: { completions: items.map((c) => ({ ...c })), ...meta } };
    },
  },
  {
    method: 'POST',
    pattern: `${API}/enrollments`,
    access: needs('enroll:write'),
    summary: 'Enrolls a user: 201 new, 200 already enrolled (safe to retry)',
    doc: {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['course_id', 'user_sub'],
              properties: {
                course_id: { type: 'string', format: 'uuid' },
                user_sub: { type: 'string', minLength: 1 },
              },
            },
          },
        },
      },
      responses: {
        '201': [
          'Enrolled (the learner is notified: assigned)',
          { type: 'object', properties: { enrollment: ref('Enrollment') } },
        ],
        '200': [
          'Already enrolled; unchanged',
          { type: 'object', properties: { enrollment: ref('Enrollment') } },
        ],
        '404': ['course_not_found (missing or unpublished) or user_not_found', ref('Error')],
        '422': ['validation_error', ref('Error')],
      },
    },
    handle: async ({ store, readJson }) => {
      const body = await readJson();
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw validationError('body', 'must be a JSON object');
      }
      const { course_id, user_sub } = body as Record<string, unknown>;
      if (typeof course_id !== 'string' || !UUID.test(course_id))
        throw validationError('course_id', 'must be a uuid');
      if (typeof user_sub !== 'string' || user_sub.trim() === '') {
        throw validationError('user_sub', 'must be a non-empty string');
      }
      const course = store.courses.find((c) => c.id === course_id.toLowerCase());
      if (!course?.published)
        throw new LearningApiError('course_not_found', `No published course ${course_id}`);
      if (!store.user(user_sub)) {
        throw new LearningApiError('user_not_found', `No user ${user_sub} in this organization`);
      }
      const { enrollment, created } = store.enroll(user_sub, course.id);
      return { status: created ? 201 : 200, body: { enrollment: { ...enrollment } } };
    },
  },
];
