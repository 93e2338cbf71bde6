import type { Row } from './model-lists';

/** How a change's audit entries are written. */
export interface EntryStyle {
  /** Added to the service's time in `createdAt` (a node whose clock is off). */
  skewMs: number;
  /** Nested deeper than the resource reads: the entry cannot be read (a gap). */
  unreadable: boolean;
}

export const PLAIN: EntryStyle = { skewMs: 0, unreadable: false };

/** Deeper than the resource reads an entry (`MAX_ENTRY_DEPTH` is 32). */
const UNREADABLE_DEPTH = 40;

export interface EntryFacts {
  id: string;
  /** `<kind>.<verb>`, e.g. `member.update`. */
  action: string;
  /** The record changed, and the member it belongs to (the same for a member's own change). */
  record: Row;
  member: Row;
  changes: Record<string, unknown>;
  /** Its `createdAt` (service time, skew included). */
  stamp: number;
  /** The list's own order among equal stamps. */
  tie: number;
  /** Which of the shapes (any number; taken modulo). */
  shape: number;
}

/**
 * One audit entry in one of the shapes a service's log takes: the document does not show an
 * entry's fields, so each shape names the record changed and its member under other keys and
 * depths. An unreadable entry keeps its id and stamp and buries the rest too deep to read.
 */
export function auditEntry(facts: EntryFacts, style: EntryStyle): Row {
  const { action, record, member, changes } = facts;
  const [kind, verb] = action.split('.') as [string, string];
  const shapes: Record<string, unknown>[] = [
    { action, resourceType: kind, resourceId: record.id, memberId: member.id, changes, source: 'DASHBOARD' },
    {
      event: `${kind.toUpperCase()}_${verb.toUpperCase()}D`,
      target: { type: kind, id: record.id },
      member: { id: member.id, name: member.displayName },
      diff: Object.entries(changes).map(([field, value]) => ({ field, value })),
    },
    { type: action, data: { object: { id: record.id, memberId: member.id }, previous: changes } },
  ];
  const body = shapes[facts.shape % shapes.length]!;
  return {
    id: facts.id,
    createdAt: facts.stamp,
    tie: facts.tie,
    action,
    resourceType: kind,
    resourceId: record.id,
    body: style.unreadable ? { metadata: nested(UNREADABLE_DEPTH, body) } : body,
  };
}

function nested(depth: number, inner: unknown): unknown {
  let value = inner;
  for (let i = 0; i < depth; i++) value = { next: value };
  return value;
}
