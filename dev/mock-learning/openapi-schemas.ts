import { PAGING_PROPERTIES } from './paging';
import { DEFAULT_LINK_REPLY_NAMES, type LinkReplyNames } from './route';

const str = { type: 'string' };
const dateTime = { type: 'string', format: 'date-time' };
const obj = (properties: Record<string, object>, required = Object.keys(properties)) => ({
  type: 'object',
  required,
  properties,
});

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Component schemas of openapi.json: the fields the document leaves "not shown" are named here. */
export const SCHEMAS: Record<string, object> = {
  Error: obj({
    error: obj(
      { code: str, message: str, details: { type: 'object', additionalProperties: { type: 'string' } } },
      ['code', 'message'],
    ),
  }),
  KeyIdentity: obj({
    tenant_id: str,
    org: obj({ alias: str, name: str, edition: str }),
    scopes: { type: 'array', items: { type: 'string', enum: ['read', 'enroll:write'] } },
    flags: obj({
      discord: { type: 'boolean' },
      gamification: { type: 'boolean' },
      api_access: { type: 'boolean' },
    }),
  }),
  Course: obj({
    id: { type: 'string', format: 'uuid' },
    title: str,
    description: str,
    allow_self_enroll: { type: 'boolean' },
    difficulty: { type: 'string', enum: ['beginner', 'intermediate', 'advanced'] },
    est_minutes: { type: 'integer' },
    listed: { type: 'boolean', description: 'false = unlisted: never show in browse or discovery views' },
  }),
  Completion: obj({ user_sub: str, course_id: str, completed_at: dateTime }),
  Enrollment: obj({
    id: str,
    course_id: { type: 'string', format: 'uuid' },
    user_sub: str,
    status: { type: 'string', enum: ['assigned', 'in_progress', 'completed'] },
    enrolled_at: dateTime,
    completed_at: { type: ['string', 'null'], format: 'date-time' },
  }),
  EnrollmentSummary: obj({
    total: { type: 'integer' },
    by_status: obj({
      assigned: { type: 'integer' },
      in_progress: { type: 'integer' },
      completed: { type: 'integer' },
    }),
    courses: {
      type: 'array',
      items: obj({
        course_id: str,
        title: str,
        enrolled: { type: 'integer' },
        completed: { type: 'integer' },
      }),
    },
  }),
  LinkRequestReply: linkRequestReplySchema(DEFAULT_LINK_REPLY_NAMES),
  LinkLookup: obj({ linked: { type: 'boolean' }, user_sub: str }, ['linked']),
  DiscordEnrollments: obj({
    discord_id: str,
    user_sub: str,
    enrollments: {
      type: 'array',
      items: obj({
        course_id: str,
        title: str,
        status: { type: 'string', enum: ['assigned', 'in_progress', 'completed'] },
        enrolled_at: dateTime,
        completed_at: { type: ['string', 'null'], format: 'date-time' },
      }),
    },
  }),
  DiscordCompletion: obj({
    discord_id: str,
    user_sub: str,
    course_id: str,
    title: str,
    completed_at: dateTime,
  }),
  Certificate: obj({
    id: str,
    discord_id: str,
    user_sub: str,
    course_id: str,
    title: str,
    issued_at: dateTime,
    expires_at: dateTime,
  }),
  Gamification: obj({
    discord_id: str,
    user_sub: str,
    xp: { type: 'integer', description: 'Experience points' },
    level: { type: 'integer', minimum: 1 },
    badges: { type: 'array', items: obj({ id: str, name: str, awarded_at: dateTime }) },
  }),
  LeaderboardEntry: obj({ rank: { type: 'integer', minimum: 1 }, name: str, points: { type: 'integer' } }),
  PublicCatalog: obj({
    org: { type: 'string', description: "The organization's current alias" },
    requested_org: {
      type: 'string',
      description: 'The alias used in the request (an old one after a rename)',
    },
    courses: { type: 'array', items: obj({ id: str, title: str, description: str }) },
  }),
};

/** `{ <field>: [items], page, limit, has_more, next_page }`. */
export function pagedList(field: string, item: string): object {
  return obj({ [field]: { type: 'array', items: ref(item) }, ...PAGING_PROPERTIES });
}

export function listOf(field: string, item: string, extra: Record<string, object> = {}): object {
  return obj({ ...extra, [field]: { type: 'array', items: ref(item) } });
}

/**
 * The link reply's schema under the given field names. Descriptions stay neutral (no "code", no
 * "url") so a client can only find the fields from types and formats.
 */
export function linkRequestReplySchema(names: LinkReplyNames): object {
  return {
    oneOf: [
      obj({
        already_linked: { const: false },
        [names.code]: {
          type: 'string',
          pattern: '^[A-Z2-9]{6}$',
          description: 'What the member types to confirm',
        },
        [names.confirmUrl]: {
          type: 'string',
          format: 'uri',
          description: 'Where the member confirms, signed in',
        },
        [names.expiresAt]: dateTime,
      }),
      obj({ already_linked: { const: true }, user_sub: str }),
    ],
  };
}
