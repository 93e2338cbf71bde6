import type { RosterContext } from '../../kernel/context';
import type { Feature } from '../../kernel/feature';
import { sharedFactsHandle } from '../../kernel/shared-facts';
import { sharedMirrorHandle } from '../mirror/handle';
import { shareStore } from './fivem/database-store';
import { dutyShareStore } from './fivem/duty-store';
import { oxmysqlStarted, serverConvars } from './fivem/oxmysql-state';
import { shareHandle } from './handle';
import { serverName } from './server-name';
import { shareDoctorLine, shareStatusLine } from './share-lines';
import { WRITE_MS } from './share-timing';
import { shareCatalog } from './shared-catalog';
import { sharedDutyHandle } from './shared-duty';
import { FactBoard } from './shared-facts';
import { SHARE_SCHEMAS } from './shared-record';
import { SharedRoster } from './shared-roster';
import { shareKeyHash } from './store-key';

/**
 * One roster for the servers on this key, through the community's database (`share.enabled`):
 * one of them reads the service, the others follow the database (see `SharedRoster`). Off by
 * default; without oxmysql, or while the database fails, this server runs alone as without it.
 * Listed after the mirror, which it shares.
 */
export function attachShare(context: RosterContext): Feature {
  const { config, logger, clock, schedule, handles, api } = context;
  const mirror = handles.get(sharedMirrorHandle);
  if (!config.share.enabled || mirror === null) return {};
  const convars = serverConvars();
  const server = serverName(
    config.share.serverName,
    convars.projectName,
    `${convars.endpoint}|${context.resourcePath ?? context.resource}`,
  );
  let requests = 0;
  const store = shareStore(shareKeyHash(context.settings.apiKey), SHARE_SCHEMAS, context.resource, clock);
  const roster = new SharedRoster({
    store,
    mirror,
    server,
    clock,
    logger,
    auditMs: config.refresh.auditSeconds * 1000,
    requestsSent: () => {
      const sent = requests;
      requests = 0;
      return sent;
    },
  });
  handles.provide(shareHandle, { report: () => roster.report() });
  // The key's identity, departments and ranks: read once for the servers on the key.
  const facts = new FactBoard({
    store,
    sharing: { settled: () => roster.settled(), role: () => roster.sharingRole() },
    clock,
  });
  handles.provide(sharedFactsHandle, facts);
  context.catalog.shareThrough(shareCatalog(facts));
  handles.provide(sharedDutyHandle, {
    role: () => roster.sharingRole(),
    store: dutyShareStore(shareKeyHash(context.settings.apiKey), context.resource, clock),
  });
  return {
    start() {
      if (!oxmysqlStarted()) {
        roster.alone('oxmysql is not started');
        logger.warn(
          'share.enabled is true but oxmysql is not started: this server reads the roster alone. Ensure oxmysql before roster in server.cfg.',
        );
        return;
      }
      // The key's minute and day kept for every server on it, while the counts are shared.
      api.shareBudget(() => roster.othersUsage());
      // At once: what this server reads at start waits to know whether another server read it.
      void roster.tick();
      schedule.every(WRITE_MS, () => roster.tick());
    },
    answered: () => {
      requests++;
    },
    stop: () => void roster.stop(),
    statusLines: () => [shareStatusLine(roster.report(), clock.now())],
    doctorLines: () => [shareDoctorLine(roster.report(), clock.now())],
  };
}
