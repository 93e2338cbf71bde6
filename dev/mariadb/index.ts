export { type Held, TestDatabase } from './database';
export { DatabaseLink } from './link';
export { MariaDbMissingError } from './programs';
export { MariaDb, type MariaDbCredentials, type MariaDbOptions, startMariaDb } from './server';
