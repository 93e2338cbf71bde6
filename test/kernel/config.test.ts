import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema, loadSettings } from '../../src/kernel/config';

const convars = {
  apiKey: 'rk_abc123_s3cr3tvalue',
  baseUrl: 'https://roster.community.test',
  logLevel: '',
  trainingApiKey: '',
};

describe('loadSettings', () => {
  it('starts with every documented default when config.json is absent', () => {
    const result = loadSettings(null, convars);
    if (!result.ok) throw new Error(result.problems.join('\n'));
    const { config } = result.settings;
    expect(config.api.timeoutMs).toBe(5000);
    expect(config.rateLimit).toEqual({ perMinute: 120, perDay: 25_000, maxWaitSeconds: 300 });
    expect(config.training.maxBodyMB).toBe(16);
    expect(config.cache.ttlSeconds).toBe(600);
    expect(config.cache.negativeTtlSeconds).toBe(60);
    expect(config.refresh.intervalSeconds).toBe(300);
    expect(config.refresh.auditSeconds).toBe(60);
    expect(config.gate.enabled).toBe(true);
    expect(config.gate.requireStatus).toEqual(['ACTIVE']);
    expect(config.gate.departments).toEqual([]);
    expect(config.gate.onError).toBe('cached');
    expect(config.gate.timeoutSeconds).toBe(15);
    expect(config.gate.bypassAce).toBe('roster.bypass');
    expect(config.ranks.order).toBe('top-down');
    expect(config.training.enabled).toBe(false);
    expect(config.mirror).toEqual({ enabled: true, resyncMinutes: 360 });
    expect(config.jobs).toEqual({
      enabled: false,
      framework: 'auto',
      departments: {},
      unassigned: { job: 'unemployed', grade: 0 },
    });
    expect(result.settings.logLevel).toBe('info');
  });

  it('grants roster principals under "roster" by default and refuses a prefix a console would split', () => {
    const result = loadSettings(null, convars);
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(result.settings.config.permissions).toEqual({ enabled: true, prefix: 'roster' });
    const custom = loadSettings(JSON.stringify({ permissions: { prefix: 'rp.pd' } }), convars);
    expect(custom.ok && custom.settings.config.permissions.prefix).toBe('rp.pd');
    for (const prefix of ['roster x', 'roster;quit', 'Roster', 'roster.', '']) {
      const bad = loadSettings(JSON.stringify({ permissions: { prefix } }), convars);
      expect(bad.ok).toBe(false);
      if (!bad.ok) expect(bad.problems[0]).toContain('permissions.prefix');
    }
  });

  it("refuses a prefix in FXServer's own namespaces, naming the key and why", () => {
    for (const prefix of ['group', 'resource', 'builtin', 'system', 'identifier', 'player', 'group.staff']) {
      const bad = loadSettings(JSON.stringify({ permissions: { prefix } }), convars);
      expect(bad.ok, prefix).toBe(false);
      if (bad.ok) continue;
      expect(bad.problems).toHaveLength(1);
      expect(bad.problems[0]).toContain('permissions.prefix');
      expect(bad.problems[0]).toContain(`"${prefix}"`);
      expect(bad.problems[0]).toContain("FXServer's own namespaces");
    }
    // Only the first part counts: a namespace's name further in is an ordinary prefix.
    for (const prefix of ['groups', 'rp.group', 'roster.player']) {
      const ok = loadSettings(JSON.stringify({ permissions: { prefix } }), convars);
      expect(ok.ok, prefix).toBe(true);
    }
  });

  it('trusts no proxy by default; panel.trustedProxies takes addresses and ranges, nothing else', () => {
    const plain = loadSettings(null, convars);
    expect(plain.ok && plain.settings.config.panel.trustedProxies).toEqual([]);
    const proxies = ['127.0.0.1', '::1', '10.0.0.0/8', 'fd00::/8'];
    const ok = loadSettings(JSON.stringify({ panel: { trustedProxies: proxies } }), convars);
    expect(ok.ok && ok.settings.config.panel.trustedProxies).toEqual(proxies);
    for (const entry of [
      'nginx',
      'localhost',
      '10.0.0.0/33',
      '1.2.3.4/8/1',
      'fe80::1%eth0',
      '10.0.0.0/',
      ' 10.0.0.1',
    ]) {
      const bad = loadSettings(JSON.stringify({ panel: { trustedProxies: ['127.0.0.1', entry] } }), convars);
      expect(bad.ok, entry).toBe(false);
      if (!bad.ok)
        expect(bad.problems).toEqual([
          expect.stringContaining(`panel.trustedProxies.1: "${entry}" is not an address`),
        ]);
    }
  });

  it('refuses a trusted proxy range of every address, which would let anyone name the client', () => {
    for (const entry of ['0.0.0.0/0', '::/0', '10.0.0.0/00']) {
      const bad = loadSettings(JSON.stringify({ panel: { trustedProxies: [entry] } }), convars);
      expect(bad.ok, entry).toBe(false);
      if (!bad.ok)
        expect(bad.problems).toEqual([
          expect.stringContaining(`panel.trustedProxies.0: "${entry}" is every address`),
        ]);
    }
  });

  it('lets roster_base_url override api.baseUrl and strips a trailing slash', () => {
    const result = loadSettings(JSON.stringify({ api: { baseUrl: 'https://other.community.test' } }), {
      ...convars,
      baseUrl: 'https://roster.community.test/',
    });
    expect(result.ok && result.settings.baseUrl).toBe('https://roster.community.test');
    expect(result.ok && result.settings.baseUrlSetting).toBe('roster_base_url');
    const fromConfig = loadSettings(JSON.stringify({ api: { baseUrl: 'https://other.community.test' } }), {
      ...convars,
      baseUrl: '',
    });
    expect(fromConfig.ok && fromConfig.settings.baseUrlSetting).toBe('api.baseUrl');
  });

  it('refuses an address ending in /api/v1, naming the setting and the address to write instead', () => {
    const fromConvar = loadSettings(null, { ...convars, baseUrl: 'https://roster.community.test/api/v1/' });
    expect(fromConvar).toEqual({
      ok: false,
      problems: [
        'roster_base_url ends in /api/v1, which the resource adds to every request itself: write "https://roster.community.test" instead.',
      ],
    });
    const fromConfig = loadSettings(
      JSON.stringify({ api: { baseUrl: 'https://community.test/roster/API/V1' } }),
      { ...convars, baseUrl: '' },
    );
    expect(!fromConfig.ok && fromConfig.problems).toEqual([
      'api.baseUrl ends in /api/v1, which the resource adds to every request itself: write "https://community.test/roster" instead.',
    ]);
    // A path prefix of the service's own is kept.
    const prefixed = loadSettings(null, { ...convars, baseUrl: 'https://community.test/roster' });
    expect(prefixed.ok && prefixed.settings.baseUrl).toBe('https://community.test/roster');
  });

  it("refuses the README's placeholder address left in place, naming where it came from", () => {
    const fromConvar = loadSettings(null, { ...convars, baseUrl: 'https://roster.example.com' });
    expect(!fromConvar.ok && fromConvar.problems).toEqual([
      'roster_base_url is still the placeholder "https://roster.example.com" (example.com addresses are for documentation only): replace it with your roster service\'s address.',
    ]);
    // config.example.json as copied, without the convar.
    const example = readFileSync(new URL('../../config.example.json', import.meta.url), 'utf8');
    const fromConfig = loadSettings(example, { ...convars, baseUrl: '' });
    expect(!fromConfig.ok && fromConfig.problems.join('\n')).toMatch(
      /^api\.baseUrl is still the placeholder "https:\/\/roster\.example\.com"/,
    );
    for (const address of ['https://EXAMPLE.org', 'https://a.b.example.net./x']) {
      expect(loadSettings(null, { ...convars, baseUrl: address }).ok).toBe(false);
    }
    expect(loadSettings(null, { ...convars, baseUrl: 'https://example.community.test' }).ok).toBe(true);
    expect(loadSettings(null, { ...convars, baseUrl: 'https://notexample.com' }).ok).toBe(true);
  });

  it('names the key and the accepted values for a wrong enum', () => {
    const result = loadSettings(JSON.stringify({ gate: { onError: 'maybe' } }), convars);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems).toEqual([
        'config.json: gate.onError must be one of "cached", "allow", "deny"; it is "maybe".',
      ]);
  });

  it('names the key for a wrong type and an unknown key', () => {
    const result = loadSettings(JSON.stringify({ gate: { enabled: 'yes', requireStatuss: [] } }), convars);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems).toContain('config.json: gate.enabled must be a boolean; it is "yes".');
      expect(result.problems.some((p) => p.includes('gate.requireStatuss'))).toBe(true);
    }
  });

  it('shows the wrong value, cut short, and never a key put in the wrong place', () => {
    const long = 'x'.repeat(100);
    const result = loadSettings(
      JSON.stringify({
        api: { timeoutMs: '5000' },
        gate: { requireStatus: long, timeoutSeconds: convars.apiKey, bypassAce: 'rk_other_t0ps3cr3tkey' },
        cache: { ttlSeconds: { seconds: 600 } },
        queue: { priority: [{ department: 'LSPD' }] },
      }),
      convars,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        'config.json: api.timeoutMs must be a number; it is "5000".',
        `config.json: gate.requireStatus must be a list (e.g. ["ACTIVE"]); it is "${'x'.repeat(39)}….`,
        'config.json: gate.timeoutSeconds must be a number; it is a value shaped like an API key (not shown).',
        'config.json: cache.ttlSeconds must be a number; it is {"seconds":600}.',
        'config.json: queue.priority.0.power must be a number; it is missing.',
      ]),
    );
    expect(result.problems.join('\n')).not.toContain('s3cr3tvalue');
    expect(result.problems.join('\n')).not.toContain('t0ps3cr3t');
  });

  it('refuses invalid JSON with the parser message', () => {
    const result = loadSettings('{ "gate": ', convars);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]).toMatch(/^config\.json is not valid JSON/);
  });

  it('refuses a missing key and a missing address, one message each', () => {
    const result = loadSettings(null, { apiKey: '', baseUrl: '', logLevel: '', trainingApiKey: '' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems).toHaveLength(2);
      expect(result.problems[0]).toMatch(/roster_api_key is not set/);
      expect(result.problems[1]).toMatch(/api\.baseUrl is not set/);
    }
  });

  it('refuses plain http except on loopback', () => {
    expect(loadSettings(null, { ...convars, baseUrl: 'http://roster.community.test' }).ok).toBe(false);
    expect(loadSettings(null, { ...convars, baseUrl: 'http://127.0.0.1:4010' }).ok).toBe(true);
    expect(loadSettings(null, { ...convars, baseUrl: 'http://localhost:4010' }).ok).toBe(true);
  });

  it('never repeats the key in a problem', () => {
    const result = loadSettings(null, { ...convars, apiKey: 'not-a-key-shape' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.join('\n')).not.toContain('not-a-key-shape');
  });

  it('a mistyped log level is a warning, not a reason to refuse players', () => {
    const result = loadSettings(null, { ...convars, logLevel: 'loud' });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.settings.logLevel).toBe('info');
      expect(result.settings.warnings[0]).toMatch(
        /^roster_log_level is "loud": accepted values are error, warn, info, debug/,
      );
    }
  });

  it('warns about limits above the documented ceiling of a key', () => {
    const result = loadSettings(JSON.stringify({ rateLimit: { perDay: 30_000 } }), convars);
    expect(result.ok && result.settings.warnings.join()).toMatch(/above the service's documented ceiling/);
  });

  it('refuses required courses with the training side off, rather than not checking them', () => {
    const result = loadSettings(JSON.stringify({ gate: { requireCourses: ['Police Academy'] } }), convars);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems[0]).toMatch(/^gate\.requireCourses is set, but the training side is off/);
  });
});

describe('every config key refuses a wrong value, naming the key', () => {
  const cases: [string, unknown, RegExp][] = [
    ['api.baseUrl', 42, /must be a string/],
    ['api.timeoutMs', 0, /must be at least 1/],
    ['api.timeoutMs', 1.5, /whole number/],
    ['rateLimit.perMinute', '120', /must be a number/],
    ['rateLimit.perMinute', -5, /at least 1/],
    ['rateLimit.perDay', null, /must be a number/],
    ['cache.ttlSeconds', 10_000_000, /at most/],
    ['cache.negativeTtlSeconds', true, /must be a number/],
    ['cache.maxEntries', 0, /at least 1/],
    ['refresh.intervalSeconds', -1, /at least 0/],
    ['refresh.auditSeconds', 1.5, /whole number/],
    ['gate.enabled', 'true', /must be a boolean/],
    ['gate.requireStatus', 'ACTIVE', /must be a list/],
    ['gate.requireStatus', [''], /at least 1 characters long/],
    ['gate.departments', {}, /must be a list/],
    ['gate.onError', 'retry', /one of "cached", "allow", "deny"/],
    ['gate.timeoutSeconds', 0.5, /at least 1/],
    ['gate.timeoutSeconds', 900, /at most 300/],
    ['gate.bypassAce', false, /must be a string/],
    ['gate.requireCourses', [1], /must be a string/],
    ['gate.messages.notOnRoster', '', /at least 1 characters long/],
    ['gate.messages.unknownMessage', 'x', /unknown key gate\.messages\.unknownMessage/],
    ['ranks.order', 'ascending', /one of "top-down", "bottom-up"/],
    ['mirror.enabled', 'no', /must be a boolean/],
    ['mirror.resyncMinutes', 5, /at least 30/],
    ['mirror.resyncMinutes', 20_000, /at most 10080/],
    ['mirror.resyncMinutes', 90.5, /whole number/],
    ['mirror.unknown', 1, /unknown key mirror\.unknown/],
    [
      'queue.priority',
      {},
      /must be a list of rules \(e\.g\. \[\{ "department": "LSPD", "minRank": "Sergeant", "power": 50 \}\]\)/,
    ],
    ['gate.departments', 'LSPD', /must be a list \(e\.g\. \["LSPD"\]\)/],
    ['queue.priority', [{ department: 'LSPD' }], /queue\.priority\.0\.power must be a number/],
    ['queue.priority', [{ power: 0 }], /at least 1/],
    [
      'queue.priority',
      [{ rank: 'Sergeant', power: 5 }],
      /unknown key queue\.priority\.0\.rank: a rule takes only department, minRank and power\./,
    ],
    ['training.enabled', 'yes', /must be a boolean/],
    ['training.departmentCourses', [], /must be an object/],
    ['training.perMinute', 0, /at least 1/],
    ['jobs.enabled', 'yes', /must be a boolean/],
    ['jobs.framework', 'qbcore', /one of "auto", "qbx", "qb", "esx", "ox", "nd"/],
    ['jobs.departments', [], /must be an object/],
    ['jobs.departments.LSPD', { grades: {} }, /jobs\.departments\.LSPD\.job/],
    [
      'jobs.departments.LSPD',
      { job: 'police', grades: { Cadet: -1 } },
      /LSPD\.grades\.Cadet must be at least 0/,
    ],
    ['jobs.departments.LSPD', { job: 'police', grades: { Cadet: 1.5 } }, /whole number/],
    ['jobs.departments.LSPD', { job: 'police', grade: 1 }, /unknown key jobs\.departments\.LSPD\.grade/],
    ['jobs.unassigned', { job: 'unemployed' }, /jobs\.unassigned\.grade must be a number/],
  ];

  it.each(cases)('%s = %j', (key, value, expected) => {
    const config: Record<string, unknown> = {};
    const path = key.split('.');
    let node = config;
    for (const part of path.slice(0, -1)) {
      node[part] = node[part] ?? {};
      node = node[part] as Record<string, unknown>;
    }
    node[path.at(-1)!] = value;
    const result = loadSettings(JSON.stringify(config), convars);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(1);
    const [problem] = result.problems;
    expect(problem).toContain(key);
    expect(problem).toMatch(expected);
  });

  it('refuses a top-level value that is not an object', () => {
    const result = loadSettings('[1,2]', convars);
    expect(result.ok).toBe(false);
  });
});

describe('config.example.json', () => {
  const example = JSON.parse(readFileSync(new URL('../../config.example.json', import.meta.url), 'utf8'));

  it('is a valid config holding every documented key with its default', () => {
    const result = loadSettings(JSON.stringify(example), convars);
    expect(result.ok).toBe(true);
    const defaults = configSchema.parse({});
    const { api, training, ...rest } = configSchema.parse(example);
    const { api: defaultApi, training: defaultTraining, ...defaultRest } = defaults;
    expect(rest).toEqual(defaultRest);
    expect(api.timeoutMs).toBe(defaultApi.timeoutMs);
    expect({ ...training, baseUrl: undefined }).toEqual({ ...defaultTraining, baseUrl: undefined });
    for (const key of [
      'api.baseUrl',
      'api.timeoutMs',
      'rateLimit.perMinute',
      'rateLimit.perDay',
      'cache.ttlSeconds',
      'cache.negativeTtlSeconds',
      'refresh.intervalSeconds',
      'refresh.auditSeconds',
      'gate.enabled',
      'gate.requireStatus',
      'gate.departments',
      'gate.onError',
      'gate.timeoutSeconds',
      'gate.bypassAce',
      'gate.requireCourses',
      'ranks.order',
      'mirror.enabled',
      'mirror.resyncMinutes',
      'queue.priority',
      'training.enabled',
      'training.baseUrl',
      'training.departmentCourses',
      'jobs.enabled',
      'jobs.framework',
      'jobs.departments',
      'jobs.unassigned',
    ]) {
      const [section, name] = key.split('.') as [string, string];
      expect(example[section], key).toHaveProperty(name);
    }
  });
});
