import type { ListSpec } from '../list-query';
import { listRoute } from '../list-route';
import { type Route, scope } from '../route';

export const DUTY_SESSION_LIST: ListSpec = {
  filters: ['id', 'rosterRef', 'unitRef'],
  sortable: ['id', 'startedAt', 'stoodDownAt', 'onDutySeconds', 'createdAt'],
  searchable: [],
  dates: ['startedAt', 'stoodDownAt', 'createdAt'],
  includes: [],
};

export const AUDIT_LOG_LIST: ListSpec = {
  filters: ['id', 'action', 'resourceType', 'resourceId', 'source', 'actorId', 'apiKeyId'],
  sortable: ['id', 'createdAt', 'action'],
  searchable: ['action', 'resourceType', 'actorName'],
  dates: ['createdAt'],
  includes: [],
};

export const activityRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/api/v1/duty-sessions',
    access: scope('timelogs:read'),
    summary: 'List duty sessions (startedAt.after / startedAt.before)',
    list: DUTY_SESSION_LIST,
    schema: 'DutySession',
    handle: listRoute((ctx) => ctx.store.data.dutySessions, DUTY_SESSION_LIST),
  },
  {
    method: 'GET',
    pattern: '/api/v1/audit-logs',
    access: scope('audit:read'),
    summary: 'List the community audit log (read only)',
    list: AUDIT_LOG_LIST,
    schema: 'AuditLogEntry',
    handle: listRoute((ctx) => ctx.store.data.auditLogs, AUDIT_LOG_LIST),
  },
];
