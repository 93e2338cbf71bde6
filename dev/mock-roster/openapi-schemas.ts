import { MEMBER_STATUSES } from './records';

/** JSON Schema (OpenAPI 3.1) of the records the mock serves; `required` lists what is always present. */

const str = { type: 'string' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const nullable = (type: string) => ({ type: [type, 'null'] });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const Rank = {
  type: 'object',
  required: ['id', 'departmentId', 'name', 'position'],
  properties: {
    id: str,
    departmentId: str,
    name: str,
    position: { type: 'integer', minimum: 1, description: '1 is the most senior rank of its department' },
    createdAt: dateTime,
  },
};

const Department = {
  type: 'object',
  required: ['id', 'name', 'shortName'],
  properties: { id: str, name: str, shortName: nullable('string'), createdAt: dateTime },
};

const DepartmentAssignment = {
  type: 'object',
  required: ['id', 'memberId', 'departmentId', 'rankId', 'isPrimary', 'callsign'],
  properties: {
    id: str,
    memberId: str,
    departmentId: str,
    rankId: { ...nullable('string'), description: 'Writable with PATCH to promote or demote' },
    isPrimary: { type: 'boolean' },
    callsign: nullable('string'),
    createdAt: dateTime,
    updatedAt: dateTime,
    rank: { oneOf: [ref('Rank'), { type: 'null' }], description: 'Present with include=rank' },
    member: { oneOf: [ref('Member'), { type: 'null' }], description: 'Present with include=member' },
    department: {
      oneOf: [ref('Department'), { type: 'null' }],
      description: 'Present with include=department',
    },
  },
};

const Member = {
  type: 'object',
  required: ['id', 'status', 'gameLicense', 'displayName'],
  properties: {
    id: str,
    status: { type: 'string', enum: [...MEMBER_STATUSES] },
    gameLicense: { type: 'string', pattern: '^license:[0-9a-f]{40}$' },
    displayName: str,
    discordId: str,
    joinDate: dateTime,
    createdAt: dateTime,
    updatedAt: dateTime,
    departmentAssignments: {
      type: 'array',
      items: ref('DepartmentAssignment'),
      description:
        'Inline (with rank expanded) when the community inlines them or with include=departmentAssignments',
    },
  },
};

// Field names a client cannot guess: only the descriptions say what each one is.
const DutySession = {
  type: 'object',
  required: ['id', 'rosterRef', 'unitRef', 'startedAt'],
  properties: {
    id: str,
    rosterRef: { ...str, description: 'Id of the member who was on duty' },
    unitRef: { ...str, description: 'Id of the department the session counts for' },
    startedAt: { ...dateTime, description: 'When the member went on duty' },
    stoodDownAt: {
      ...nullable('string'),
      format: 'date-time',
      description: 'When the member went off duty; null while still on duty',
    },
    onDutySeconds: {
      ...nullable('integer'),
      minimum: 0,
      description: 'Length of the session in seconds; null while still on duty',
    },
    createdAt: dateTime,
  },
};

const AuditLogEntry = {
  type: 'object',
  description:
    'Only id and createdAt are common to every entry. Changes made with a key have the fields below; changes made in the dashboard are written in several shapes (e.g. targetType/targetId, entity/diff, metadata.memberId, resource/resourceId).',
  required: ['id', 'createdAt'],
  additionalProperties: true,
  properties: {
    id: str,
    action: str,
    resourceType: str,
    resourceId: str,
    changes: { type: 'object', additionalProperties: { type: 'object', properties: { from: {}, to: {} } } },
    source: { type: 'string', enum: ['API', 'DASHBOARD'], description: 'API = made with a key' },
    actorId: { ...str, description: 'The person who owns the key' },
    actorName: str,
    apiKeyId: nullable('string'),
    createdAt: dateTime,
  },
};

const Pagination = {
  type: 'object',
  required: ['page', 'limit', 'total', 'total_pages', 'has_more'],
  properties: {
    page: { type: 'integer' },
    limit: { type: 'integer' },
    total: { type: 'integer' },
    total_pages: { type: 'integer' },
    has_more: { type: 'boolean' },
  },
};

const ErrorEnvelope = {
  type: 'object',
  required: ['success', 'error', 'meta'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: str,
        message: str,
        details: {
          type: 'object',
          properties: { field: str, reason: str },
          description: 'validation_error only',
        },
      },
    },
    meta: { type: 'object', required: ['request_id'], properties: { request_id: str } },
  },
};

const Whoami = {
  type: 'object',
  required: ['valid', 'community', 'scopes'],
  properties: {
    valid: { const: true },
    community: { type: 'object', required: ['id', 'name'], properties: { id: str, name: str } },
    scopes: { type: 'array', items: str },
    key: { type: 'object', properties: { id: str, name: str, rateLimitPerMinute: { type: 'integer' } } },
  },
};

export const SCHEMAS = {
  Member,
  DepartmentAssignment,
  Department,
  Rank,
  DutySession,
  AuditLogEntry,
  Pagination,
  Error: ErrorEnvelope,
  Whoami,
};
