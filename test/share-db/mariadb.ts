import { inject } from 'vitest';
import { type MariaDb, type MariaDbCredentials, startMariaDb, TestDatabase } from '../../dev/mariadb';

let own: Promise<MariaDb> | null = null;

/**
 * The run's MariaDB when vitest started one (a file vitest.config.ts counts as a database test);
 * otherwise one of this test process's own, stopped when the process ends.
 */
export async function mariadbCredentials(): Promise<MariaDbCredentials> {
  const shared = inject('mariadb');
  if (shared) return shared;
  own ??= startMariaDb();
  return (await own).credentials;
}

/** A database of its own for one test file (or test): drop it when done. */
export async function testDatabase(): Promise<TestDatabase> {
  return TestDatabase.create(await mariadbCredentials());
}

/**
 * A server of this file's own, for tests that stop or freeze the whole server (the shared one
 * serves other files meanwhile). Costs a second or so.
 */
export const privateMariaDb = (): Promise<MariaDb> => startMariaDb();
