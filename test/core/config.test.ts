import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/core/config';

const convars = {
  apiKey: 'rk_abc123_s3cr3tvalue',
  baseUrl: 'https://roster.example.com',
  logLevel: '',
  trainingApiKey: '',
};

describe('loadSettings', () => {
  it('starts with every documented default when config.json is absent', () => {
    const result = loadSettings(null, convars);
    if (!result.ok) throw new Error(result.problems.join('\n'));
    const { config } = result.settings;
    expect(config.api.timeoutMs).toBe(5000);
    expect(config.rateLimit).toEqual({ perMinute: 120, perDay: 25_000 });
    expect(config.cache.ttlSeconds).toBe(600);
    expect(config.cache.negativeTtlSeconds).toBe(60);
    expect(config.refresh.intervalSeconds).toBe(300);
    expect(config.gate.enabled).toBe(true);
    expect(config.gate.requireStatus).toEqual(['ACTIVE']);
    expect(config.gate.departments).toEqual([]);
    expect(config.gate.onError).toBe('cached');
    expect(config.gate.timeoutSeconds).toBe(15);
    expect(config.gate.bypassAce).toBe('roster.bypass');
    expect(config.ranks.order).toBe('top-down');
    expect(config.training.enabled).toBe(false);
    expect(result.settings.logLevel).toBe('info');
  });

  it('lets roster_base_url override api.baseUrl and strips a trailing slash', () => {
    const result = loadSettings(JSON.stringify({ api: { baseUrl: 'https://other.example.com' } }), {
      ...convars,
      baseUrl: 'https://roster.example.com/',
    });
    expect(result.ok && result.settings.baseUrl).toBe('https://roster.example.com');
  });

  it('names the key and the accepted values for a wrong enum', () => {
    const result = loadSettings(JSON.stringify({ gate: { onError: 'maybe' } }), convars);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems).toEqual([
        'config.json: gate.onError must be one of "cached", "allow", "deny".',
      ]);
  });

  it('names the key for a wrong type and an unknown key', () => {
    const result = loadSettings(JSON.stringify({ gate: { enabled: 'yes', requireStatuss: [] } }), convars);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems).toContain('config.json: gate.enabled must be a boolean.');
      expect(result.problems.some((p) => p.includes('gate.requireStatuss'))).toBe(true);
    }
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
    expect(loadSettings(null, { ...convars, baseUrl: 'http://roster.example.com' }).ok).toBe(false);
    expect(loadSettings(null, { ...convars, baseUrl: 'http://127.0.0.1:4010' }).ok).toBe(true);
    expect(loadSettings(null, { ...convars, baseUrl: 'http://localhost:4010' }).ok).toBe(true);
  });

  it('never repeats the key in a problem', () => {
    const result = loadSettings(null, { ...convars, apiKey: 'not-a-key-shape', logLevel: 'loud' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems.join('\n')).not.toContain('not-a-key-shape');
      expect(result.problems.some((p) => p.startsWith('roster_log_level'))).toBe(true);
    }
  });
});
