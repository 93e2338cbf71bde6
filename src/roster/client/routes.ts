/** Where every roster API route starts; the service's address (`api.baseUrl`) goes without it. */
const API = '/api/v1';

/**
 * The roster API's routes, under the service's address: every request's path is built from these,
 * and so are the lookups in the service's OpenAPI description.
 */
export const ROSTER_ROUTES = {
  whoami: `${API}/whoami`,
  members: `${API}/members`,
  departmentAssignments: `${API}/department-assignments`,
  departments: `${API}/departments`,
  ranks: `${API}/ranks`,
  auditLogs: `${API}/audit-logs`,
  dutySessions: `${API}/duty-sessions`,
  openapi: `${API}/openapi.json`,
} as const;

/** One department assignment (a rank change's PATCH). */
export function assignmentRoute(assignmentId: string): string {
  return `${ROSTER_ROUTES.departmentAssignments}/${encodeURIComponent(assignmentId)}`;
}
