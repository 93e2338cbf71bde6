import { z } from 'zod';
import type { RosterContext } from '../../kernel/context';
import type { Feature } from '../../kernel/feature';
import { sharedFactsHandle } from '../../kernel/shared-facts';
import { errorMessage } from '../../platform/error-message';
import { fx } from '../../platform/natives';
import { hasScope, isKeyRefused, scopeWarnings } from '../../roster/client';
import type { KeyIdentity } from '../../roster/model';

const START_RETRY_MS = 30_000;
/**
 * How old the key's identity another server on the key checked may be for this one to start on
 * it: scopes change rarely, and every request is still judged by the service.
 */
export const SHARED_IDENTITY_MS = 6 * 3_600_000;

const sharedIdentity = z.object({
  community: z.object({ id: z.string().max(191).nullable(), name: z.string().max(2_000) }),
  scopes: z.array(z.string().max(200)).max(200),
});
/** How often a key that lacks `audit:read` is checked again, so a scope added later is used. */
export const SCOPE_RECHECK_MS = 15 * 60_000;

/**
 * At start, asks the roster who the key belongs to and what it may do (`whoami`), again every 30 s
 * until it answers (with the key shared, another server's recent answer is taken instead); a refused key is re-checked by the client, and the check begins again once it
 * works. Then the context knows the identity, other resources hear `roster:ready`, the
 * features their `ready`, and once the first departments load settled, `departmentsRead`.
 * While the key lacks `audit:read` it is checked again every 15 minutes (background lane): an
 * owner who adds the scope in the dashboard gets the audit feed and the mirror without a restart.
 */
export function attachKeyCheck(context: RosterContext): Feature {
  const { api, catalog: departments, schedule, logger, features, handles } = context;
  /** The key's identity as a server on the key checked it lately, when the key is shared; else asked here. */
  const checkKey = async (): Promise<KeyIdentity> => {
    const facts = handles.get(sharedFactsHandle);
    if (facts === null) return api.whoami();
    const known = await facts.take('identity', sharedIdentity, SHARED_IDENTITY_MS, { wait: true });
    if (known) return known.value;
    const identity = await api.whoami();
    facts.put('identity', identity);
    return identity;
  };
  const recheckLater = (): void => {
    if (!hasScope(context.identity?.scopes ?? [], 'audit:read')) schedule.once(SCOPE_RECHECK_MS, recheck);
  };
  const recheck = async (): Promise<void> => {
    try {
      const again = await api.whoami('background');
      handles.get(sharedFactsHandle)?.put('identity', again);
      const before = new Set(context.identity?.scopes ?? []);
      const changed = again.scopes.length !== before.size || again.scopes.some((s) => !before.has(s));
      context.identity = again;
      if (changed) {
        logger.info(`the key's scopes changed: ${again.scopes.join(', ') || 'none'}.`);
        features.scopesChanged(again);
      }
    } catch {
      // A refused key is reported by the client itself; an unanswered check is tried next time.
    }
    recheckLater();
  };
  const begin = async (): Promise<void> => {
    let verified: KeyIdentity;
    // Departments and ranks load alongside the key check, so the first player waits for neither.
    const catalog = departments.ready ? undefined : departments.load();
    try {
      verified = await checkKey();
      // Known before anything is said: a `roster:ready` handler may already change a rank.
      context.identity = verified;
    } catch (error) {
      if (isKeyRefused(error)) {
        // The client said so once, with when it checks the key again; a second report would
        // only name another schedule.
        const stopListening = api.onStateChange((change) => {
          if (change.state !== 'resumed') return;
          stopListening();
          void begin();
        });
        return;
      }
      logger.error(
        `could not verify the key: ${sentence(errorMessage(error))} Retrying in ${START_RETRY_MS / 1000}s.`,
      );
      schedule.once(START_RETRY_MS, () => void begin());
      return;
    }
    logger.info(`connected to the roster of "${verified.community.name}".`);
    for (const warning of scopeWarnings(verified.scopes)) logger.warn(warning);
    fx.emit('roster:ready', { community: verified.community.name, scopes: verified.scopes });
    features.ready(verified);
    recheckLater();
    await catalog;
    features.departmentsRead(departments.index);
  };
  return { start: () => void begin() };
}

/** `text` ending in a full stop, without doubling one already there. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
