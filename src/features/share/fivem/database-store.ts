import type { AuditPosition } from '../../audit/audit-feed';
import { type ShareSchemas, type ShareStore, ShareStoreError } from '../share-store';
import type { SharedRecord } from '../shared-record';

const unavailable = (): Promise<never> =>
  Promise.reject(new ShareStoreError('unavailable', 'the database store is not built in'));

/** The shared tables of the key `keyHash` over oxmysql. */
export function shareStore(
  _keyHash: string,
  _schemas: ShareSchemas<SharedRecord, AuditPosition>,
): ShareStore<SharedRecord, AuditPosition> {
  return {
    migrate: unavailable,
    state: unavailable,
    lease: unavailable,
    release: unavailable,
    publish: unavailable,
    writeThrough: unavailable,
    membersSince: unavailable,
    count: unavailable,
    budget: unavailable,
  };
}
