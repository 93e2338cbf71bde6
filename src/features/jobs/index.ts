import type { RosterContext } from '../../kernel/context';
import { fx } from '../../platform/natives';
import { statusAdmits } from '../../roster/member-status';
import type { ExportingFeature } from '../exports/exporting-feature';
import { jobExports } from './fivem/job-exports';
import { JobSyncRunner } from './fivem/job-sync-runner';
import { jobSyncHandle } from './handle';
import { JobSync } from './job-sync';

/** The longest one call into a framework may take: a hung framework never holds a player's sync. */
const FRAMEWORK_CALL_MS = 3000;

/**
 * Job sync: the roster's departments and ranks become the character's
 * framework job and grade. `getJob` answers whether or not it is on (null when off). A
 * player's roster data moving (load, refresh, audit feed, rank change) reaches it through the
 * player hooks; the framework's own events through the runner.
 */
export function attachJobs(context: RosterContext): ExportingFeature {
  const { config, logger, clock, players, catalog } = context;
  if (!config.jobs.enabled) return { exports: jobExports(() => null) };
  const sync = new JobSync({
    memberOf: (src) => {
      const view = players.get(src)?.view;
      return view === undefined ? undefined : (view?.member ?? null);
    },
    nameOf: (src) => fx.GetPlayerName(src) ?? `player ${src}`,
    admits: statusAdmits(config.gate.requireStatus),
    unassigned: config.jobs.unassigned,
    clock,
    logger,
    callMs: FRAMEWORK_CALL_MS,
    jobChanged: (src, change) => fx.emit('roster:jobChanged', Number(src), change),
  });
  const runner = new JobSyncRunner({
    config,
    sync,
    catalog: () => (catalog.ready ? catalog.index : null),
    clock,
    logger,
    callMs: FRAMEWORK_CALL_MS,
  });
  context.handles.provide(jobSyncHandle, { jobOf: (src) => sync.jobOf(src) });
  return {
    exports: jobExports(() => sync),
    start: () => runner.start(),
    stop: () => runner.stop(),
    catalogLoaded: () => runner.catalogLoaded(),
    playerLoaded: (src) => sync.apply(src),
    playerUpdated: (src) => sync.apply(src),
    doctorLines: () => runner.doctorLines(),
  };
}
