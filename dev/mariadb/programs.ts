import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The two programs of Debian's `mariadb-server` package the tests run. */
export interface MariaDbPrograms {
  /** The server itself. */
  readonly server: string;
  /** The script that lays out a fresh data directory (system tables, users). */
  readonly installDb: string;
}

/** What to tell someone whose machine lacks the server: the package, not a silent skip. */
export class MariaDbMissingError extends Error {
  constructor(program: string, searched: readonly string[]) {
    super(
      `${program} not found (looked in ${searched.join(', ')}): the database tests run a real MariaDB. ` +
        'Install it with `apt-get install mariadb-server` (Debian), or run `sh dev/mariadb/install.sh`.',
    );
    this.name = 'MariaDbMissingError';
  }
}

// Debian puts the server in /usr/sbin, which a non-root PATH often lacks.
const SYSTEM_DIRS = ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin'];

/** Where to look: the PATH, then where packages put system programs. */
export function searchDirs(): string[] {
  return [...new Set([...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...SYSTEM_DIRS])];
}

function find(program: string, dirs: readonly string[]): string {
  for (const dir of dirs) {
    const candidate = path.join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory: try the next.
    }
  }
  throw new MariaDbMissingError(program, dirs);
}

/** Finds `mariadbd` and `mariadb-install-db`, or throws MariaDbMissingError naming the package. */
export function findMariaDbPrograms(dirs: readonly string[] = searchDirs()): MariaDbPrograms {
  return { server: find('mariadbd', dirs), installDb: find('mariadb-install-db', dirs) };
}
