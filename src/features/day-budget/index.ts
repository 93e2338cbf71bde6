import { dailyCost, keyOutlook, type ServerRates } from '../../http/limiter/daily-estimate';
import { decodeDay, encodeDay, keyTag } from '../../http/limiter/saved-day';
import type { RosterContext } from '../../kernel/context';
import type { Feature } from '../../kernel/feature';
import { errorMessage } from '../../platform/error-message';
import { hasScope } from '../../roster/client';
import { auditFeedHandle } from '../audit/handle';
import { mirrorHandle } from '../mirror/handle';
import { dailyBudgetLines } from './doctor-lines';
import { dayFile } from './fivem/day-file';

const SAVE_MS = 60_000;

/**
 * The key's daily budget across restarts and servers. The rate limiter's count of the day is kept
 * in `roster-day.json` (written every minute and at stop, read back when attached, before any
 * request), so a restart does not start the day at zero. `roster doctor` tells what this server
 * costs a day, how many servers' worth the key carries when the service's counts show others on
 * it, and when the day would run out.
 */
export function attachDailyBudget(context: RosterContext): Feature {
  const { api, clock, logger, config, players, handles, schedule } = context;
  const store = context.resourcePath ? dayFile(context.resourcePath) : null;
  const key = keyTag(context.settings.apiKey);
  if (store) {
    try {
      const text = store.read();
      if (text !== null) {
        const decoded = decodeDay(text, key);
        if ('day' in decoded) api.keyDay.restore(decoded.day, clock.now());
        else logger.info(`the day's request count in roster-day.json was not used: ${decoded.problem}.`);
      }
    } catch (error) {
      logger.warn(`could not read roster-day.json: ${errorMessage(error)}`);
    }
  }
  const save = () => {
    if (!store) return;
    try {
      const now = clock.now();
      store.write(encodeDay(key, api.keyDay.saved(now), now));
    } catch (error) {
      logger.warn(`could not save the day's request count: ${errorMessage(error)}`);
    }
  };
  /** The key may read duty sessions: those of the members online are read every refresh interval. */
  let dutyRead = false;
  const rates = (): ServerRates => {
    const feed = handles.get(auditFeedHandle);
    const mirror = handles.get(mirrorHandle)?.report() ?? null;
    const on = mirror !== null && mirror.state.kind !== 'off';
    return {
      auditSeconds: feed ? config.refresh.auditSeconds : 0,
      mirror: on
        ? { resyncMinutes: config.mirror.resyncMinutes, held: mirror.held, deciding: mirror.deciding }
        : null,
      refreshSeconds: config.refresh.intervalSeconds,
      dutySeconds: dutyRead ? config.refresh.intervalSeconds : 0,
      feedHealthy: feed?.healthy ?? false,
      online: players.onlineCount,
    };
  };
  return {
    start: () => {
      if (store) schedule.every(SAVE_MS, save);
    },
    stop: save,
    ready: (identity) => {
      dutyRead = hasScope(identity.scopes, 'timelogs:read');
    },
    scopesChanged: (identity) => {
      dutyRead = hasScope(identity.scopes, 'timelogs:read');
    },
    doctorLines: () => {
      const now = clock.now();
      const day = api.keyDay.report(now);
      return dailyBudgetLines(keyOutlook(dailyCost(rates(), day, now), day, now), now);
    },
  };
}
