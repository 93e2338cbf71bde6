import type { Clock } from '../../../platform/ports';
import type { AuditPosition } from '../../audit/audit-feed';
import type { ShareSchemas, ShareStore } from '../share-store';
import type { SharedRecord } from '../shared-record';
import { OxmysqlCalls, serverOxmysql } from './oxmysql-calls';
import { OxmysqlShareStore } from './oxmysql-store';

/** The shared tables of the key `keyHash`, in the server's database through oxmysql's exports. */
export function shareStore(
  keyHash: string,
  schemas: ShareSchemas<SharedRecord, AuditPosition>,
  resource: string,
  clock: Clock,
): ShareStore<SharedRecord, AuditPosition> {
  const calls = new OxmysqlCalls({ exports: serverOxmysql, resource, clock });
  return new OxmysqlShareStore({ calls, keyHash, schemas });
}
