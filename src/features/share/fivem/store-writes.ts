import type { SharedChange } from '../share-store';
import { isStorableName } from '../store-rows';
import * as sql from './store-sql';

/** A statement with its values, as oxmysql's `transaction` takes it. */
export type Statement = [string, unknown[]];

/**
 * The statements of one write: the version claimed (by the lease holder only, when `reader` is
 * given), its members and removals under that version, and the version noted under `token`.
 * When the claim matches no row, the others match none either: nothing is written.
 */
export function writeStatements<R, A>(
  keyHash: string,
  token: string,
  change: SharedChange<R, A>,
  reader: string | null,
): Statement[] {
  const moved: [sql.StateColumn, unknown][] = [];
  if (change.auditPosition !== undefined) {
    moved.push([
      'audit_position',
      change.auditPosition === null ? null : JSON.stringify(change.auditPosition),
    ]);
  }
  if (change.fullReadAt !== undefined) moved.push(['full_read_at', change.fullReadAt]);
  if (change.complete !== undefined) moved.push(['complete', change.complete ? 1 : 0]);
  if (change.community !== undefined) moved.push(['community', change.community]);
  const claim = sql.claimVersion(
    moved.map(([column]) => column),
    reader !== null,
  );
  const statements: Statement[] = [
    // Any server's write makes the key's row if it went (the reader's needs its lease in it anyway).
    ...(reader === null ? [[sql.STATE_ROW, [keyHash]] as Statement] : []),
    [claim, [token, ...moved.map(([, value]) => value), keyHash, ...(reader === null ? [] : [reader])]],
  ];

  const rows: unknown[][] = [];
  for (const member of change.members ?? []) {
    if (!isStorableName(member.memberId) || !isStorableName(member.license)) continue;
    rows.push([member.memberId, member.license, JSON.stringify(member.record), Math.round(member.readAt)]);
  }
  for (const removal of change.removed ?? []) {
    if (!isStorableName(removal.memberId)) continue;
    rows.push([removal.memberId, null, null, Math.round(removal.readAt)]);
  }
  for (let at = 0; at < rows.length; at += sql.MEMBERS_PER_STATEMENT) {
    const chunk = rows.slice(at, at + sql.MEMBERS_PER_STATEMENT);
    statements.push([sql.writeMembers(chunk.length), [...chunk.flat(), keyHash, token]]);
  }
  statements.push([sql.NOTE_WRITE, [keyHash, token]]);
  return statements;
}
