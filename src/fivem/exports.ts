import type { Logger } from '../core/ports';
import type { RosterQueries } from '../core/roster/queries';
import type { RosterService } from '../core/roster/roster-service';
import { key, license, serverId } from './arguments';
import { fx } from './natives';

export interface ExportDeps {
  service: () => RosterService | null;
  queries: () => RosterQueries | null;
  logger: Logger;
}

type Answer = (...args: unknown[]) => unknown;

/**
 * Every export of the resource, as one table: name → [handler, the answer for bad input].
 * Nothing throws across the boundary: one resource's mistake never breaks another.
 */
function exportTable({ service, queries }: ExportDeps): Record<string, [Answer, unknown]> {
  const view = (src: unknown) => {
    const id = serverId(src);
    return id === null ? undefined : service()?.view(id);
  };
  return {
    getMember: [(src) => view(src)?.member ?? null, null],
    isOnRoster: [(src) => queries()?.isOnRoster(view(src)) ?? false, false],
    getDepartments: [(src) => view(src)?.member.departments ?? [], []],
    isInDepartment: [
      (src, department) => {
        const d = key(department);
        return d !== null && (queries()?.isInDepartment(view(src), d) ?? false);
      },
      false,
    ],
    getRank: [
      (src, department) => {
        if (department === undefined || department === null) return queries()?.rank(view(src)) ?? null;
        const d = key(department);
        return d === null ? null : (queries()?.rank(view(src), d) ?? null);
      },
      null,
    ],
    hasRank: [
      (src, department, rank) => {
        const d = key(department);
        const r = key(rank);
        return d !== null && r !== null && (queries()?.hasRank(view(src), d, r) ?? false);
      },
      false,
    ],
    hasMinRank: [
      (src, department, rank) => {
        const d = key(department);
        const r = key(rank);
        return d !== null && r !== null && (queries()?.hasMinRank(view(src), d, r) ?? false);
      },
      false,
    ],
    lookupLicense: [
      async (value) => {
        const wanted = license(value);
        const roster = service();
        if (wanted === null || roster === null) return null;
        const resolution = await roster.resolve(wanted, 'refresh');
        if (resolution.kind === 'answer') return resolution.view?.member ?? null;
        return resolution.lastKnown?.member ?? null;
      },
      null,
    ],
    refreshPlayer: [
      async (src) => {
        const id = serverId(src);
        const roster = service();
        return id === null || roster === null ? null : roster.refreshPlayer(id);
      },
      null,
    ],
  };
}

export function registerExports(deps: ExportDeps): void {
  for (const [name, [handler, empty]] of Object.entries(exportTable(deps))) {
    fx.exports(name, (...args: unknown[]) => {
      try {
        const answer = handler(...args);
        if (answer instanceof Promise) {
          return answer.catch((error: unknown) => {
            deps.logger.warn(`export ${name} failed: ${(error as Error)?.message ?? String(error)}`);
            return empty;
          });
        }
        return answer;
      } catch (error) {
        deps.logger.warn(`export ${name} failed: ${(error as Error)?.message ?? String(error)}`);
        return empty;
      }
    });
  }
}
