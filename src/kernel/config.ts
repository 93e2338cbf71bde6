import { isIP } from 'node:net';
import { z } from 'zod';
import type { LogLevel } from '../platform/logger';
import { isReservedPrefix, PRINCIPAL_PATTERN, RESERVED_NAMESPACES } from '../platform/principal-names';
import { unassignedProblem } from './unassigned-check';

/** Texts shown to refused or waiting players. Placeholders: {player}, {community}, {seconds}, {status}, {requestId}. */
const messagesSchema = z
  .object({
    checking: z.string().min(1).default('Checking the {community} roster…'),
    waiting: z.string().min(1).default('Checking the {community} roster… (busy, about {seconds}s)'),
    notOnRoster: z
      .string()
      .min(1)
      .default(
        'You are not on the {community} roster. Apply on the community website, then reconnect once you are accepted.',
      ),
    wrongStatus: z
      .string()
      .min(1)
      .default('Your {community} roster status is {status}, which may not join this server. Contact staff.'),
    notInDepartment: z
      .string()
      .min(1)
      .default('You are on the {community} roster but not in a department allowed on this server.'),
    noLicense: z
      .string()
      .min(1)
      .default(
        'No Rockstar license was found for your game. Restart FiveM, sign in to Rockstar and reconnect.',
      ),
    unavailable: z
      .string()
      .min(1)
      .default('The {community} roster is unavailable right now. Please try again shortly.'),
    notConfigured: z
      .string()
      .min(1)
      .default("This server's roster check is not set up. Please tell the server staff."),
  })
  .strict()
  .prefault({});

const positiveInt = (max: number) => z.number().int().min(1).max(max);

/** A framework's grade: a whole number (0-based in Qbox, QBCore, ESX; 1-based in ox_core, ND_Core). */
const gradeNumber = z.number().int().min(0).max(1000);

const jobsSchema = z
  .object({
    enabled: z.boolean().default(false),
    framework: z.enum(['auto', 'qbx', 'qb', 'esx', 'ox', 'nd']).default('auto'),
    departments: z
      .record(
        z.string().min(1),
        z
          .object({
            job: z.string().min(1),
            grades: z.record(z.string().min(1), gradeNumber).optional(),
          })
          .strict(),
      )
      .default({}),
    unassigned: z
      .object({ job: z.string().min(1), grade: gradeNumber })
      .strict()
      .default({ job: 'unemployed', grade: 0 }),
  })
  .strict()
  .prefault({});

export const configSchema = z
  .object({
    api: z
      .object({
        baseUrl: z.string().optional(),
        timeoutMs: positiveInt(120_000).default(5000),
      })
      .strict()
      .prefault({}),
    rateLimit: z
      .object({
        perMinute: positiveInt(100_000).default(120),
        perDay: positiveInt(10_000_000).default(25_000),
        maxWaitSeconds: positiveInt(3600).default(300),
      })
      .strict()
      .prefault({}),
    cache: z
      .object({
        ttlSeconds: positiveInt(7 * 86_400).default(600),
        negativeTtlSeconds: positiveInt(86_400).default(60),
        maxEntries: positiveInt(1_000_000).default(50_000),
      })
      .strict()
      .prefault({}),
    refresh: z
      .object({
        intervalSeconds: z.number().int().min(0).max(86_400).default(300),
        auditSeconds: z.number().int().min(0).max(86_400).default(60),
      })
      .strict()
      .prefault({}),
    gate: z
      .object({
        enabled: z.boolean().default(true),
        requireStatus: z.array(z.string().min(1)).default(['ACTIVE']),
        departments: z.array(z.string().min(1)).default([]),
        onError: z.enum(['cached', 'allow', 'deny']).default('cached'),
        timeoutSeconds: z.number().min(1).max(300).default(15),
        bypassAce: z.string().default('roster.bypass'),
        requireCourses: z.array(z.string().min(1)).default([]),
        messages: messagesSchema,
      })
      .strict()
      .prefault({}),
    ranks: z
      .object({
        order: z.enum(['top-down', 'bottom-up']).default('top-down'),
      })
      .strict()
      .prefault({}),
    permissions: z
      .object({
        enabled: z.boolean().default(true),
        // Goes into console commands: only slug parts joined by dots, nothing a console would split.
        prefix: z
          .string()
          .regex(
            PRINCIPAL_PATTERN,
            'must be lowercase letters, digits and _, parts joined by dots (e.g. "roster")',
          )
          // A roster name under FXServer's own namespaces would become a server group or a player.
          .refine((prefix) => !isReservedPrefix(prefix), {
            error: (issue) =>
              `"${String(issue.input)}" is in one of FXServer's own namespaces (${RESERVED_NAMESPACES.join(', ')}): a department named like a server group (e.g. Admin) would hand its members that group's rights; choose another, e.g. "roster"`,
          })
          .default('roster'),
      })
      .strict()
      .prefault({}),
    // The owner's panel; the token is the convar roster_web_token.
    panel: z
      .object({
        trustedProxies: z
          .array(
            z
              .string()
              .refine(isAddressOrRange, {
                error: (issue) =>
                  `"${String(issue.input)}" is not an address: list the reverse proxies' addresses, e.g. ["127.0.0.1"] or ["10.0.0.0/8"]`,
              })
              // A range of every address would let anyone name the client in X-Forwarded-For.
              .refine((text) => !/\/0+$/.test(text), {
                error: (issue) =>
                  `"${String(issue.input)}" is every address: anyone could then name any client in X-Forwarded-For; list only the reverse proxies, e.g. ["127.0.0.1"] or ["10.0.0.0/8"]`,
              }),
          )
          .max(256)
          .default([]),
      })
      .strict()
      .prefault({}),
    // The whole roster kept on the server. A full read of a large roster
    // costs about two requests per 100 members, so it is never repeated more than twice an hour.
    mirror: z
      .object({
        enabled: z.boolean().default(true),
        resyncMinutes: z.number().int().min(30).max(10_080).default(360),
      })
      .strict()
      .prefault({}),
    // Queue priority by department and rank: first match wins.
    queue: z
      .object({
        priority: z
          .array(
            z
              .object({
                department: z.string().min(1).optional(),
                minRank: z.string().min(1).optional(),
                power: z.number().int().min(1).max(1_000_000),
              })
              .strict(),
          )
          .default([]),
      })
      .strict()
      .prefault({}),
    // Job sync: the roster's departments and ranks become framework jobs.
    jobs: jobsSchema,
    training: z
      .object({
        enabled: z.boolean().default(false),
        baseUrl: z.string().optional(),
        departmentCourses: z.record(z.string(), z.array(z.string().min(1))).default({}),
        perMinute: positiveInt(100_000).default(60),
        maxBodyMB: positiveInt(256).default(16),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type Config = z.output<typeof configSchema>;
export type GateMessages = Config['gate']['messages'];

/** Server-only convars the resource reads. */
export interface ConvarValues {
  apiKey: string;
  baseUrl: string;
  logLevel: string;
  trainingApiKey: string;
}

/** Where the roster service's address was read from: the convar wins over config.json. */
export type AddressSetting = 'roster_base_url' | 'api.baseUrl';

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
      return { ok: false, problems: [`config.json is not valid JSON: ${(error as Error).message}`] };
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

/** An IPv4 or IPv6 address, or a range of them as `address/prefix`. */
function isAddressOrRange(text: string): boolean {
  const [address = '', prefix, ...rest] = text.split('/');
  const version = isIP(address);
  // Node's isIP takes a zone (`fe80::1%eth0`); FXServer's peer addresses never carry one (inet_ntop),
  // so such an entry would never match and the panel would drop it without a word.
  if (version === 0 || rest.length > 0 || address.includes('%')) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 6 ? 128 : 32);
}

/** Validates a service address; plain HTTP is accepted only on loopback. */
export function checkAddress(address: string, key: string, problems: string[]): string {
  if (address === '') {
    problems.push(`${key} is not set: the service's address, e.g. https://roster.example.com.`);
    return '';
  }
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    problems.push(
      `${key} is "${printableAddress(address)}", which is not an address: expected e.g. https://roster.example.com.`,
    );
    return '';
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    problems.push(`${key} must be a plain address without credentials, query or fragment.`);
    return '';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    problems.push(
      `${key} must use https:// (plain http:// is accepted only for localhost, 127.x.x.x and [::1]); got "${printableAddress(address)}".`,
    );
    return '';
  }
  // The README and config.example.json write example.com addresses, which are reserved for
  // documentation: one left in place can only ever fail to answer.
  if (isPlaceholderHost(url.hostname)) {
    problems.push(
      `${key} is still the placeholder "${url.origin}" (example.com addresses are for documentation only): replace it with your ${key.startsWith('training.') ? 'learning' : 'roster'} service's address.`,
    );
    return '';
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The roster service's address: as {@link checkAddress}, and without the API's `/api/v1`, which
 * every request path already starts with (kept, it would ask for `/api/v1/api/v1/whoami`).
 */
function checkRosterAddress(address: string, key: AddressSetting, problems: string[]): string {
  const checked = checkAddress(address, key, problems);
  const versioned = /\/api\/v1$/i.exec(checked);
  if (!versioned) return checked;
  problems.push(
    `${key} ends in /api/v1, which the resource adds to every request itself: write "${checked.slice(0, versioned.index)}" instead.`,
  );
  return '';
}

/** `example.com`, `example.net`, `example.org` and their subdomains (RFC 2606). */
function isPlaceholderHost(hostname: string): boolean {
  return /(^|\.)example\.(com|net|org)\.?$/i.test(hostname);
}

/**
 * Only names that cannot resolve elsewhere: `localhost`, an IPv4 literal in 127.0.0.0/8 and `[::1]`.
 * `127.attacker.example` or `127.0.0.1.nip.io` look local but are DNS names, so the key would leave
 * the machine in the clear. WHATWG URL parsing turns every IPv4 form (`2130706433`, `127.1`) into a
 * valid dotted quad and leaves names as names, so a dotted-quad test on the parsed host is enough.
 */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * An address as it may be printed: nothing that may hold a secret. Everything up to the last `@`
 * goes, scheme or not (`owner:pw@host` parses as a scheme `owner:`, and a `/` in a password ends
 * the authority early), and so do a query and a fragment (`?token=…`).
 */
export function printableAddress(address: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(address)?.[0] ?? (address.startsWith('//') ? '//' : '');
  const at = address.lastIndexOf('@');
  const rest = at >= 0 ? address.slice(at + 1) : address.slice(scheme.length);
  return `${scheme}${rest.replace(/[?#].*$/s, '')}`;
}

/** True when `issue` is a bound of the same kind as `kept` that says more (closer to the key's range). */
function tighter(issue: z.core.$ZodIssue, kept: z.core.$ZodIssue): boolean {
  if (issue.code === 'too_big' && kept.code === 'too_big')
    return Number(issue.maximum) < Number(kept.maximum);
  if (issue.code === 'too_small' && kept.code === 'too_small')
    return Number(issue.minimum) > Number(kept.minimum);
  return false;
}

/** What a list holds, shown when something else is given. */
const LIST_EXAMPLES: Record<string, string> = {
  'gate.requireStatus': 'a list (e.g. ["ACTIVE"])',
  'gate.departments': 'a list (e.g. ["LSPD"])',
  'queue.priority': 'a list of rules (e.g. [{ "department": "LSPD", "minRank": "Sergeant", "power": 50 }])',
};

/** The keys an object takes, where a misspelt one is likely: a queue.priority rule. */
function acceptedKeys(key: string): string {
  return /^queue\.priority\.\d+$/.test(key)
    ? 'a rule takes only department, minRank and power.'
    : 'check the spelling against config.example.json.';
}

function describeIssue(issue: z.core.$ZodIssue, raw: unknown, secrets: readonly string[]): string {
  const key = issue.path.map(String).join('.') || '(top level)';
  const given = `; it is ${shownValue(valueAt(raw, issue.path), secrets)}`;
  switch (issue.code) {
    case 'unrecognized_keys':
      return `config.json: unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys
        .map((k) => (key === '(top level)' ? k : `${key}.${k}`))
        .join(', ')}: ${acceptedKeys(key)}`;
    case 'invalid_value':
      return `config.json: ${key} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}${given}.`;
    case 'invalid_type':
      return `config.json: ${key} must be ${article(issue.expected, key)}${given}.`;
    case 'too_small':
      return `config.json: ${key} must be at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters long' : ''}${given}.`;
    case 'too_big':
      return `config.json: ${key} must be at most ${String(issue.maximum)}${given}.`;
    default:
      return `config.json: ${key}: ${issue.message}.`;
  }
}

/** The value config.json holds at `path` (undefined when it holds none). */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let node = raw;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[part];
  }
  return node;
}

const SHOWN_CHARACTERS = 40;

/**
 * A wrong value as a problem may print it: JSON, cut to a few dozen characters. A key pasted into
 * the wrong place stays hidden: the configured keys, and anything shaped like a roster key.
 */
function shownValue(value: unknown, secrets: readonly string[]): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value) ?? String(value);
  if (secrets.some((secret) => text.includes(secret)) || /[^_\s"]+_[^_\s"]+_[^\s"]{8,}/.test(text))
    return 'a value shaped like an API key (not shown)';
  return text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}…` : text;
}

function article(expected: string, key: string): string {
  if (expected === 'array') return LIST_EXAMPLES[key] ?? 'a list';
  if (expected === 'object' || expected === 'record') return 'an object';
  if (expected === 'int') return 'a whole number';
  return `a ${expected}`;
}
