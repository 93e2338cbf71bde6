import type { Clock } from '../../../platform/ports';
import { ShareStoreError } from '../share-store';
import {
  type DutyShareStore,
  dutyStateRow,
  type SharedDutyCursor,
  type SharedDutyPage,
  type SharedDutySession,
  type SharedDutyState,
  sessionRecord,
  sessionRow,
} from '../shared-duty';
import { isStorableName, pageSize } from '../store-rows';
import * as sql from './duty-sql';
import { OxmysqlCalls, type OxTransaction, type OxValues, serverOxmysql } from './oxmysql-calls';

/** Sessions are kept in the rows until they ended this long ago: the longest window hours are asked for, and a day. */
const KEPT_MS = 31 * 86_400_000;
/** Sessions that ended long ago are deleted with every this many writes. */
const SWEEP_EVERY = 50;

/** The shared duty sessions of the key `keyHash`, in the server's database through oxmysql's exports. */
export function dutyShareStore(keyHash: string, resource: string, clock: Clock): DutyShareStore {
  return new OxmysqlDutyStore(new OxmysqlCalls({ exports: serverOxmysql, resource, clock }), keyHash);
}

export class OxmysqlDutyStore implements DutyShareStore {
  private untilSweep = 0;

  constructor(
    private readonly calls: OxmysqlCalls,
    private readonly keyHash: string,
  ) {}

  async state(): Promise<SharedDutyState> {
    const [row] = await this.calls.within(() => this.rows(sql.DUTY_STATE, [this.keyHash]));
    const state = dutyStateRow(row);
    if (state === null)
      throw new ShareStoreError('unreadable', 'The shared duty state row is not in the expected form.');
    return state;
  }

  async publish(read: {
    from: number;
    after: number;
    sessions: readonly SharedDutySession[];
  }): Promise<void> {
    const rows: unknown[][] = [];
    for (const session of read.sessions) {
      if (!isStorableName(session.id) || !isStorableName(session.member)) continue;
      rows.push([session.id, sessionRecord(session), Math.round(session.end ?? session.start)]);
    }
    const statements: [string, unknown[]][] = [
      [sql.DUTY_STATE_ROW, [this.keyHash]],
      [
        sql.CLAIM_DUTY_VERSION,
        [...[read.from, read.from, read.after, read.after].map(Math.round), this.keyHash],
      ],
    ];
    for (let at = 0; at < rows.length; at += sql.SESSIONS_PER_STATEMENT) {
      const chunk = rows.slice(at, at + sql.SESSIONS_PER_STATEMENT);
      statements.push([sql.writeSessions(chunk.length), [...chunk.flat(), this.keyHash]]);
    }
    await this.calls.within(async () => {
      await this.calls.transaction(statements as OxTransaction);
      if (this.untilSweep-- <= 0) {
        this.untilSweep = SWEEP_EVERY;
        await this.calls.query(sql.SWEEP_DUTY, [this.keyHash, KEPT_MS]);
      }
    });
  }

  async sessionsSince(after: SharedDutyCursor, limit: number): Promise<SharedDutyPage> {
    const size = pageSize(limit);
    const found = await this.calls.within(() =>
      this.rows(sql.SESSIONS_SINCE, [this.keyHash, after.version, after.version, after.id, size]),
    );
    const page: SharedDutyPage = { sessions: [], unreadable: 0, next: after, done: found.length < size };
    for (const columns of found) {
      const row = sessionRow(columns);
      if (row) {
        const { version: _version, ...session } = row;
        page.sessions.push(session);
      } else page.unreadable++;
      const version = Number(columns.version);
      if (typeof columns.session_id === 'string' && Number.isSafeInteger(version))
        page.next = { version, id: columns.session_id };
    }
    return page;
  }

  private async rows(statement: string, values: OxValues): Promise<Record<string, unknown>[]> {
    const answer = await this.calls.query(statement, values);
    if (!Array.isArray(answer)) throw new ShareStoreError('unreadable', 'The database did not answer rows.');
    return answer as Record<string, unknown>[];
  }
}
