import type { Config } from '../../../kernel/config';
import { errorMessage } from '../../../platform/error-message';
import type { Logger } from '../../../platform/ports';
import type { RosterCatalog } from '../../../roster/catalog';
import type { CatalogIndex } from '../../../roster/catalog-index';
import type { MemberResolver } from '../../../roster/member-resolver';
import type { Member } from '../../../roster/model';
import type { PlayerEntry, PlayerRegistry } from '../../../roster/player-registry';
import { blockedMessage, permissionLines } from '../permission-lines';
import { PrincipalGrants } from '../principal-grants';
import { ledgerFile } from './ledger-file';
import { principalCommands, principalPermission } from './principal-commands';

export interface PermissionDeps {
  resource: string;
  resourcePath: string | null;
  config: Config;
  players: PlayerRegistry;
  members: () => MemberResolver | null;
  catalog: () => RosterCatalog | null;
  logger: Logger;
}

/** The call sites of roster principals: the gate, the publish path, the lifecycle, start and stop. */
export interface Permissions {
  /** The gate is about to admit a connecting player: their grants go in before `done()`. */
  admitted(tempId: string): void;
  /** A player's roster data was announced or changed: their grants follow, before the event goes out. */
  follow(src: string, member: Member | null): void;
  dropped(entry: PlayerEntry): void;
  catalogLoaded(catalog: CatalogIndex): void;
  /** At resource start: clean up after a previous run, or say what server.cfg lacks. */
  start(): void;
  /** Every sweep: forgets clients the registry no longer has; grants once the permission appears. */
  sweep(): void;
  stop(): void;
  doctorLines(): string[];
}

/** Roster principals for FXServer's ACL, or a handle that does nothing when `permissions.enabled` is false. */
export function principalsFor(deps: PermissionDeps): Permissions {
  const { config, players, logger, resource } = deps;
  const settings = config.permissions;
  if (!settings.enabled || deps.resourcePath === null) return inert(deps);
  const grants = new PrincipalGrants({
    commands: principalCommands(resource),
    ledger: ledgerFile(deps.resourcePath),
    logger,
    prefix: settings.prefix,
    order: config.ranks.order,
    requireStatus: config.gate.requireStatus,
    blockedMessage: blockedMessage(resource),
  });
  // A failure here must never hold up a join or an event: it is logged and the caller goes on.
  const guarded = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (error) {
      logger.warn(`permissions: ${what} failed: ${errorMessage(error)}`);
    }
  };
  const hold = (entry: PlayerEntry, member: Member | null) => grants.hold(entry, entry.license, member);

  return {
    admitted(tempId) {
      guarded('granting at admission', () => {
        const entry = players.get(tempId);
        if (!entry) return;
        // A status-only answer leaves the entry empty; its record (status now, departments last known) is cached.
        const view =
          entry.view !== undefined
            ? entry.view
            : entry.license !== null
              ? deps.members()?.lastKnown(entry.license)
              : undefined;
        hold(entry, view?.member ?? null);
      });
    },
    follow: (src, member) =>
      guarded('moving grants', () => {
        const entry = players.get(src);
        if (entry) hold(entry, member);
      }),
    dropped: (entry) => guarded('removing grants', () => grants.release(entry)),
    catalogLoaded: (catalog) => guarded('rebuilding the rank ladders', () => grants.setCatalog(catalog)),
    start: () => guarded('starting', () => grants.activate()),
    sweep: () =>
      guarded('sweeping', () => {
        grants.activate();
        grants.retain(new Set(players.entries()));
      }),
    stop: () => guarded('removing every grant', () => grants.stop()),
    doctorLines: () =>
      permissionLines({
        enabled: true,
        resource,
        prefix: settings.prefix,
        allowed: principalPermission(resource),
        ladders: deps.catalog()?.ready ? grants.currentLadders : null,
        grantedLinks: grants.grantedCount,
      }),
  };
}

function inert(deps: PermissionDeps): Permissions {
  const nothing = () => {};
  return {
    admitted: nothing,
    follow: nothing,
    dropped: nothing,
    catalogLoaded: nothing,
    start: nothing,
    sweep: nothing,
    stop: nothing,
    doctorLines: () =>
      deps.config.permissions.enabled
        ? [
            '! permissions: the resource folder is unknown, so no ledger can be kept; no principals are granted.',
          ]
        : permissionLines({
            enabled: false,
            resource: deps.resource,
            prefix: deps.config.permissions.prefix,
            allowed: { add: false, remove: false },
            ladders: null,
            grantedLinks: 0,
          }),
  };
}
