import type { TestProject } from 'vitest/node';
import { type MariaDbCredentials, startMariaDb } from '../../dev/mariadb';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's MariaDB (see test/share-db/mariadb.ts); each test file makes its own database. */
    mariadb: MariaDbCredentials;
  }
}

/**
 * One MariaDB for the whole run of the database tests (vitest.config.ts runs this only when one
 * of them is selected): started before the first file, stopped after the last.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startMariaDb();
  console.log(`MariaDB for the database tests: started in ${server.startedInMs} ms`);
  project.provide('mariadb', server.credentials);
  return () => server.stop();
}
