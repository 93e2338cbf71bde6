import { seededRandom } from '../mock-http/seeded-random';

/** One change made in the dashboard, before it is written as an audit entry. */
export interface DashboardChange {
  /** What kind of record changed. */
  kind: 'member' | 'department_assignment' | 'rank' | 'duty_session';
  /** The record changed. */
  id: string;
  /** The member the record belongs to (a member, their assignment or duty session); null for a rank. */
  memberId: string | null;
  field: string;
  from: unknown;
  to: unknown;
}

export interface AuditActor {
  id: string;
  name: string;
}

/**
 * The shapes entries take. The API document does not show an entry's fields, and a service's log
 * is written by many parts of it over years: these are shapes such logs are seen to have, so a
 * reader that depends on one field name fails here as it would there.
 */
export const AUDIT_SHAPES = ['resource', 'target', 'entity', 'metadata', 'resourceName'] as const;
export type AuditShape = (typeof AUDIT_SHAPES)[number];

/**
 * The shape of the `n`th dashboard change (from 0) for a seed: the shapes in an order shuffled by
 * the seed, round and round, so any five changes in a row use every shape.
 */
export function auditShapeAt(seed: number, n: number): AuditShape {
  const random = seededRandom(seed ^ 0x5a17);
  const order = [...AUDIT_SHAPES];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order[n % order.length]!;
}

/** The entry's fields (without `id` and `createdAt`, which the log adds) in one shape. */
export function shapeEntry(
  shape: AuditShape,
  change: DashboardChange,
  actor: AuditActor,
): Record<string, unknown> {
  const { kind, id, field, from, to } = change;
  switch (shape) {
    case 'resource':
      return {
        action: `${kind}.update`,
        resourceType: kind,
        resourceId: id,
        changes: { [field]: { from, to } },
        source: 'DASHBOARD',
        actorId: actor.id,
        actorName: actor.name,
        apiKeyId: null,
      };
    case 'target':
      return {
        action: `${kind.toUpperCase()}_UPDATED`,
        targetType: pascal(kind),
        targetId: id,
        changes: [{ field, oldValue: from, newValue: to }],
        actor: { id: actor.id, name: actor.name, type: 'staff' },
        via: 'dashboard',
      };
    case 'entity':
      return {
        event: `${kind}.updated`,
        entity: { type: kind, id },
        diff: { [field]: [from, to] },
        performedBy: { userId: actor.id, displayName: actor.name },
      };
    case 'metadata':
      // Names the member the change concerns, not the record itself (an assignment's id is absent).
      return {
        action: 'UPDATE',
        category: CATEGORIES[kind],
        description: `Changed ${field} from ${String(from)} to ${String(to)}`,
        metadata:
          change.memberId === null
            ? { [`${kind}Id`]: id, field, previous: from, next: to }
            : { memberId: change.memberId, field, previous: from, next: to },
        user: { id: actor.id, name: actor.name },
      };
    case 'resourceName':
      return {
        resource: kind,
        resourceId: id,
        operation: 'update',
        data: { before: { [field]: from }, after: { [field]: to } },
        userId: actor.id,
      };
  }
}

/** The scope group each kind of record belongs to, as the API document groups them. */
const CATEGORIES: Record<DashboardChange['kind'], string> = {
  member: 'roster',
  department_assignment: 'roster',
  rank: 'departments',
  duty_session: 'timelogs',
};

function pascal(kind: string): string {
  return kind
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
