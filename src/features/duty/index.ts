import type { RosterContext } from '../../kernel/context';
import { sharedFactsHandle } from '../../kernel/shared-facts';
import { serverId } from '../../platform/arguments';
import { errorMessage } from '../../platform/error-message';
import { fx } from '../../platform/natives';
import { hasScope, ROSTER_ROUTES } from '../../roster/client';
import type { ExportingFeature } from '../exports/exporting-feature';
import type { ExportAnswers } from '../exports/fivem/safe-exports';
import { sharedDutyHandle } from '../share/shared-duty';
import { membersNamedByDutyEntries } from './duty-entries';
import {
  DUTY_SESSIONS,
  type DutyFields,
  type DutyFieldsReading,
  describeDutyFields,
  readDutyFields,
} from './duty-fields';
import { DutyLedger } from './duty-ledger';
import { DUTY_BATCH, DutyReader, dutyBudget } from './duty-reader';
import { DutySharing } from './duty-sharing';
import { registerHoursCommand } from './fivem/hours-command';
import { dutyHoursHandle } from './handle';
import { shareDutyFields, sharedDutyFields } from './shared-duty-fields';

const DEFAULT_DAYS = 7;

type DutyState =
  | { kind: 'waiting' }
  | { kind: 'no-scope' }
  | { kind: 'off'; why: string }
  | { kind: 'no-fields'; why: string }
  | { kind: 'reading'; reader: DutyReader; fields: DutyFields; described: string; sharing: DutySharing };

/**
 * Duty hours: with `timelogs:read`, the duty sessions of the members online, read in the
 * background lane with at most one request per 100 online members per `refresh.intervalSeconds`,
 * their fields taken from the service's OpenAPI description: each member in full as they join (in
 * batches of 100), then one read of what the whole community stored since, so sessions stored
 * late count; a member whose sessions an audit entry names is read again in full at the next
 * refresh, within the same budget. Answers `getDutyHours`, the `hours` command and the panel's
 * hours column from memory.
 */
export function attachDutyHours(context: RosterContext): ExportingFeature {
  const { api, players, schedule, clock, logger, config, output } = context;
  const intervalMs = config.refresh.intervalSeconds * 1000;
  const ledger = new DutyLedger();
  let state: DutyState = { kind: 'waiting' };
  /** The audit log is read: entries about duty sessions reach `auditEntries`. */
  let auditRead = false;

  const memberOf = (src: string) => players.get(src)?.view?.member ?? null;
  const hoursOf = (src: string, days: number): number | null => {
    const member = memberOf(src);
    return member === null ? null : ledger.hours(member.id, days, clock.now());
  };
  const onlineMembers = () => {
    const ids = new Set<string>();
    for (const [, entry] of players.onlinePlayers()) if (entry.view) ids.add(entry.view.member.id);
    return [...ids];
  };

  const answers: ExportAnswers = {
    getDutyHours: [
      (src, days) => {
        const id = serverId(src);
        const window = days === undefined || days === null ? DEFAULT_DAYS : days;
        if (id === null || typeof window !== 'number' || !Number.isFinite(window) || window <= 0) return null;
        return hoursOf(id, window);
      },
      null,
    ],
  };
  context.handles.provide(dutyHoursHandle, { hours: hoursOf });
  registerHoursCommand({
    hours: hoursOf,
    name: (src) => memberOf(src)?.name ?? fx.GetPlayerName(src) ?? `player ${src}`,
    isOnline: (src) => players.isOnline(src),
    reading: () => state.kind === 'reading',
    output,
  });

  /** The fields another server on the key read, else the service's description, read here. */
  const readFields = async (): Promise<DutyFieldsReading | null> => {
    const facts = context.handles.get(sharedFactsHandle);
    const shared = await sharedDutyFields(facts);
    if (shared) return { ok: true, fields: shared };
    let document: unknown;
    try {
      document = await api.getRaw(ROSTER_ROUTES.openapi, undefined, 'background');
    } catch (error) {
      state = { kind: 'no-fields', why: `the description could not be read (${errorMessage(error)})` };
      schedule.once(intervalMs, () => void describe());
      return null;
    }
    const reading = readDutyFields(document);
    if (reading.ok) shareDutyFields(facts, reading.fields);
    return reading;
  };

  /** Reads the description until it answers, then the sessions every interval. */
  const describe = async (): Promise<void> => {
    const reading = await readFields();
    if (reading === null) return;
    if (!reading.ok) {
      state = { kind: 'no-fields', why: reading.why };
      logger.warn(`duty hours are not read: the service's description of ${DUTY_SESSIONS}: ${reading.why}.`);
      return;
    }
    const reader = new DutyReader({
      list: (path, query, lane, maxPages) => api.list(path, query, lane, maxPages),
      fields: reading.fields,
      ledger,
      clock,
      logger,
      serviceTime: () => api.serviceTime.now(),
    });
    const sharing = new DutySharing(() => context.handles.get(sharedDutyHandle), logger, intervalMs);
    state = {
      kind: 'reading',
      reader,
      fields: reading.fields,
      described: describeDutyFields(reading.fields),
      sharing,
    };
    const refresh = async () => {
      const online = onlineMembers();
      const source = await sharing.before(reader);
      const done = await reader.refresh(online, dutyBudget(online.length), source).catch((error: unknown) => {
        logger.warn(`duty sessions could not be read: ${errorMessage(error)}`);
        return null;
      });
      if (done) await sharing.after(done);
    };
    await refresh();
    schedule.every(intervalMs, refresh);
  };

  return {
    exports: answers,
    ready(identity) {
      if (state.kind !== 'waiting') return;
      if (!hasScope(identity.scopes, 'timelogs:read')) {
        state = { kind: 'no-scope' };
        logger.info('the key lacks timelogs:read: duty hours are not read.');
        return;
      }
      if (intervalMs <= 0) {
        state = { kind: 'off', why: 'refresh.intervalSeconds is 0' };
        return;
      }
      void describe();
    },
    auditEntries(fresh) {
      if (state.kind !== 'reading' || fresh.length === 0) return;
      const members = new Set(onlineMembers());
      const named = membersNamedByDutyEntries(fresh, {
        owners: ledger.owners(),
        members,
        fields: state.fields,
      });
      state.reader.reread(named);
    },
    // Entries were lost: any online member's sessions may have been changed or deleted meanwhile.
    auditGap() {
      if (state.kind === 'reading') state.reader.rereadEveryone();
    },
    auditFeedStarted() {
      auditRead = true;
    },
    doctorLines: () => dutyLines(state, config.refresh.intervalSeconds, auditRead),
  };
}

function dutyLines(state: DutyState, intervalSeconds: number, auditRead: boolean): string[] {
  switch (state.kind) {
    case 'waiting':
      return ['! duty hours: waiting for the key check.'];
    case 'no-scope':
      return [
        '! duty hours: the key lacks timelogs:read, so duty hours are unknown (getDutyHours answers null). Add timelogs:read to the key in the roster dashboard (Settings, API Keys).',
      ];
    case 'off':
      return [`! duty hours: not read, because ${state.why}.`];
    case 'no-fields':
      return [`✗ duty hours: not read: ${state.why}.`];
    case 'reading': {
      const last = state.reader.last;
      return [
        `✓ duty hours: ${DUTY_SESSIONS} fields, from the service's description: ${state.described}.`,
        `  At most one request per ${DUTY_BATCH} online members every ${intervalSeconds} s${
          last
            ? `; last read: ${last.members} member(s) complete (${last.reread} read again in full after the audit log named their sessions), ${last.requests} request(s), ${last.sessions} session(s).`
            : '.'
        }`,
        '  Each member is read in full as they join; what the community stored since (createdAt) is one read for every member online, so a session stored after it began counts; members on duty are read again until their session ends.',
        auditRead
          ? '  A member whose sessions the audit log names is read again in full: corrections and deletions count at the next refresh.'
          : '! duty hours: the audit log is not read (audit:read, refresh.auditSeconds), so a session corrected or deleted after it was read counts as first read until the member joins again.',
        ...sharedLine(state.sharing.standing),
      ];
    }
  }
}

/** With the roster shared: who reads what the community stored for the servers on the key. */
function sharedLine(standing: DutySharing['standing']): string[] {
  if (standing === 'reads for the others')
    return ['  Shared: this server reads what the community stored for the other servers on the key.'];
  if (standing === 'follows')
    return [
      '  Shared: what the community stored is taken from the database, read by another server on the key.',
    ];
  return [];
}
