import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { readIfPresent, replaceFile } from '../../../platform/read-if-present';
import type { LedgerStore } from '../principal-grants';

/**
 * The principal ledger as a file in the resource folder, replaced by writing a temporary file and
 * renaming it over the old one (a crash mid-write leaves the previous ledger whole), and appended
 * to as links are granted (a line a crash cut short is skipped when read back). No fsync: the
 * ledger guards against the resource dying while FXServer lives on; a machine crash takes
 * FXServer's ACL (memory only) with it, so there is nothing left to clean after one.
 */
export function ledgerFile(resourcePath: string, name = 'roster-principals.txt'): LedgerStore {
  const path = join(resourcePath, name);
  return {
    read: () => readIfPresent(path),
    write: (text) => replaceFile(path, text),
    append(text) {
      appendFileSync(path, text);
    },
  };
}
