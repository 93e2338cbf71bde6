import type { MirrorReport } from '../../../src/features/mirror/mirror-state';
import type { PanelSources } from '../../../src/features/panel/panel-sources';
import { viewOf } from '../../../src/roster/member-view';
import type { PlayerEntry } from '../../../src/roster/player-registry';

export const API_KEY = 'rk_live_abcd1234_SECRETSECRETSECRET';
export const TOKEN = 'panel-token-0123456789';

export function fakeSources(overrides: Partial<PanelSources> = {}): PanelSources & { doctorRuns: number } {
  const online = new Map<string, PlayerEntry>([
    [
      '1',
      {
        license: 'license:0123456789abcdef0123456789abcdef01234567',
        name: 'Alice',
        since: 0,
        view: viewOf({
          id: 'mem_1',
          name: 'Alice Example',
          status: 'ACTIVE',
          license: 'license:0123456789abcdef0123456789abcdef01234567',
          departments: [
            {
              id: 'dept_lspd',
              name: 'Los Santos Police',
              shortName: 'LSPD',
              primary: true,
              callsign: '1-A-12',
              rank: { id: 'r1', name: 'Sergeant', position: 3 },
            },
          ],
        }),
      },
    ],
    ['2', { license: null, name: 'Bob', since: 0, view: undefined }],
  ]);
  const sources = {
    doctorRuns: 0,
    version: '1.2.3',
    identity: () => ({ community: 'Test Community', scopes: ['members:read'] }),
    limiter: () => ({
      perMinute: 120,
      perDay: 25000,
      remainingThisMinute: 117,
      remainingToday: 24990,
      keyUsedLastMinute: null,
      resetAt: null,
      pausedUntil: null,
      queued: { join: 1, write: 0, refresh: 2, background: 0 },
      suspended: null,
    }),
    lastError: () => ({ message: 'lookup: the service answered 503', at: 1000 }),
    cache: () => ({ size: 42, hits: 30, misses: 10, hitRate: 0.75 }),
    mirror: (): MirrorReport | null => ({
      state: { kind: 'up' },
      held: 1234,
      lastFullReadAt: 500,
      requestsToday: 31,
      failure: null,
      caughtUp: { at: 700, reads: 1 },
      auditReadAt: 900,
      deciding: true,
      gaps: 1,
      lastGap: { at: 600, reason: 'more than 2000 entries stamped 2025-06-02T12:00:00.000Z', rereadAt: 650 },
      clockSkew: { entries: 2, last: { entry: 'aud_fast_2', aheadMs: 3_540_000, at: 800 } },
    }),
    onlinePlayers: () => online,
    onlineCount: () => online.size,
    connectingCount: () => 3,
    training: () => null,
    async doctor() {
      sources.doctorRuns++;
      return ['✓ key works', `key was ${API_KEY}`];
    },
    ...overrides,
  };
  return sources;
}
