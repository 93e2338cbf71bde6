/*
 * The resource's settings: config.json checked against its schema (schema.ts, the players' texts in
 * messages.ts), the server-only convars, and the addresses (addresses.ts). A mistake is told back
 * naming the key, what it holds and what it takes (issues.ts); with any, the resource fails closed.
 */

import type { z } from 'zod';
import { errorMessage } from '../../platform/error-message';
import type { LogLevel } from '../../platform/logger';
import { type AddressSetting, checkAddress, checkRosterAddress } from './addresses';
import { describeIssue, tighter } from './issues';
import { type Config, configSchema } from './schema';
import { unassignedProblem } from './unassigned-check';

export { type AddressSetting, checkAddress, isLoopbackHost, printableAddress } from './addresses';
export { type Config, configSchema, type GateMessages } from './schema';

/** Server-only convars the resource reads. */
export interface ConvarValues {
  apiKey: string;
  baseUrl: string;
  logLevel: string;
  trainingApiKey: string;
}

export interface Settings {
  config: Config;
  /** Normalised address of the roster service, without a trailing slash. */
  baseUrl: string;
  /** The setting `baseUrl` came from, for messages that tell the owner what to check. */
  baseUrlSetting: AddressSetting;
  apiKey: string;
  logLevel: LogLevel;
  trainingApiKey: string | undefined;
  /** Mistakes that do not stop the resource, to print at start. */
  warnings: string[];
}

export type SettingsResult = { ok: true; settings: Settings } | { ok: false; problems: string[] };

const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];
/** A key's ceilings in the roster API document. */
const DOCUMENTED_PER_MINUTE = 120;
const DOCUMENTED_PER_DAY = 25_000;

/** Turns config.json text and convars into settings, or one readable problem per mistake. */
export function loadSettings(configText: string | null, convars: ConvarValues): SettingsResult {
  const problems: string[] = [];
  let raw: unknown = {};
  // Editors on Windows often save with a byte-order mark, which JSON.parse rejects invisibly.
  const text = configText?.replace(/^\uFEFF/, '') ?? null;
  if (text !== null && text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch (error) {
      return { ok: false, problems: [`config.json is not valid JSON: ${errorMessage(error)}`] };
    }
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const secrets = [convars.apiKey.trim(), convars.trainingApiKey.trim()].filter((s) => s !== '');
    // One line per key: zod can report a key twice (a number past both the safe-integer limit and
    // the key's own bound); two bounds for one value read as a contradiction, so keep the key's own:
    // the lower ceiling, the higher floor.
    const byKey = new Map<string, z.core.$ZodIssue>();
    for (const issue of parsed.error.issues) {
      const key = issue.path.map(String).join('.');
      const kept = byKey.get(key);
      if (kept === undefined || tighter(issue, kept)) byKey.set(key, issue);
    }
    for (const issue of byKey.values()) problems.push(describeIssue(issue, raw, secrets));
    return { ok: false, problems };
  }
  const config = parsed.data;

  const apiKey = convars.apiKey.trim();
  if (apiKey === '') {
    problems.push(
      'roster_api_key is not set: add `set roster_api_key "<key>"` to server.cfg (use `set`, not `setr`).',
    );
  } else if (!/^[^_\s]+_[^_\s]+_\S+$/.test(apiKey)) {
    problems.push('roster_api_key does not look like a roster key: expected <KEY_PREFIX>_<KEY_ID>_<SECRET>.');
  }

  const baseUrlSetting: AddressSetting = convars.baseUrl.trim() !== '' ? 'roster_base_url' : 'api.baseUrl';
  const address = convars.baseUrl.trim() !== '' ? convars.baseUrl.trim() : (config.api.baseUrl ?? '').trim();
  const baseUrl = checkRosterAddress(address, baseUrlSetting, problems);

  let trainingApiKey: string | undefined;
  if (config.training.enabled && convars.trainingApiKey.trim() !== '') {
    trainingApiKey = convars.trainingApiKey.trim();
    checkAddress((config.training.baseUrl ?? '').trim(), 'training.baseUrl', problems);
  }
  // Required courses that nothing checks would silently stop gating.
  if (config.gate.requireCourses.length > 0 && trainingApiKey === undefined) {
    problems.push(
      'gate.requireCourses is set, but the training side is off: set training.enabled to true and roster_training_api_key, or empty gate.requireCourses.',
    );
  }

  const unassigned = unassignedProblem(config.jobs);
  if (unassigned) problems.push(unassigned);

  const warnings: string[] = [];
  const level = convars.logLevel.trim().toLowerCase();
  let logLevel: LogLevel = 'info';
  if (level !== '') {
    if ((LOG_LEVELS as readonly string[]).includes(level)) logLevel = level as LogLevel;
    else {
      warnings.push(
        `roster_log_level is "${convars.logLevel}": accepted values are ${LOG_LEVELS.join(', ')}; using info.`,
      );
    }
  }
  if (config.gate.requireStatus.length === 0) {
    warnings.push(
      'gate.requireStatus is empty, so no member status may join and every member is refused: list the statuses that may join, e.g. ["ACTIVE"].',
    );
  }
  if (config.rateLimit.perMinute > DOCUMENTED_PER_MINUTE || config.rateLimit.perDay > DOCUMENTED_PER_DAY) {
    warnings.push(
      `rateLimit is above the service's documented ceiling (${DOCUMENTED_PER_MINUTE} a minute, ${DOCUMENTED_PER_DAY} a day per key): the service's headers hold the minute down, but a day above ${DOCUMENTED_PER_DAY} ends in 429s.`,
    );
  }

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    settings: { config, baseUrl, baseUrlSetting, apiKey, logLevel, trainingApiKey, warnings },
  };
}
