import { scopeWarnings } from '../../core/api';
import type { KeyIdentity } from '../../core/model';
import { fx } from '../../fivem/natives';
import type { Capability } from '../capability';
import type { RosterContext } from '../roster-context';

const START_RETRY_MS = 30_000;

/**
 * At start, asks the roster who the key belongs to and what it may do (`whoami`), again every 30 s
 * until it answers. Then the context knows the identity, other resources hear `roster:ready`, the
 * capabilities their `ready`, and once the first departments load settled, `departmentsRead`.
 */
export function attachKeyCheck(context: RosterContext): Capability {
  const { api, service, schedule, logger, capabilities } = context;
  const begin = async (): Promise<void> => {
    let verified: KeyIdentity;
    // Departments and ranks load alongside the key check, so the first player waits for neither.
    const catalog = service.catalogReady ? undefined : service.loadCatalog();
    try {
      verified = await api.whoami();
      // Known before anything is said: a `roster:ready` handler may already change a rank.
      context.identity = verified;
    } catch (error) {
      logger.error(
        `could not verify the key: ${(error as Error).message}. Retrying in ${START_RETRY_MS / 1000}s.`,
      );
      schedule.once(START_RETRY_MS, () => void begin());
      return;
    }
    logger.info(`connected to the roster of "${verified.community.name}".`);
    for (const warning of scopeWarnings(verified.scopes)) logger.warn(warning);
    fx.emit('roster:ready', { community: verified.community.name, scopes: verified.scopes });
    capabilities.ready(verified);
    await catalog;
    capabilities.departmentsRead(service.catalog);
  };
  return { start: () => void begin() };
}
