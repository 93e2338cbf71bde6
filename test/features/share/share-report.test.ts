import { describe, expect, it } from 'vitest';
import { createPanel } from '../../../src/features/panel/panel';
import type { PanelSources } from '../../../src/features/panel/panel-sources';
import { shareDoctorLine, shareStatusLine } from '../../../src/features/share/share-lines';
import type { ShareReport } from '../../../src/features/share/share-report';
import { silentLogger } from '../../../src/platform/ports';
import { FakeClock } from '../../http/limiter/fake-clock';
import { API_KEY, fakeSources, TOKEN } from '../panel/fake-sources';
import { call } from '../panel/fx-http-fake';

const NOW = Date.UTC(2026, 0, 1, 12);

const follower: ShareReport = {
  on: true,
  role: 'follower',
  server: 'events',
  off: null,
  reader: 'main',
  leaseLeftMs: 21_400,
  version: 812,
  held: 2000,
  lag: 3,
  syncedAt: NOW - 1_000,
  complete: true,
  budget: { minute: 14, day: 930 },
  pending: 0,
};

async function statusJson(sharing: PanelSources['sharing']) {
  const panel = createPanel({
    token: TOKEN,
    sources: fakeSources(sharing ? { sharing } : {}),
    refusalTexts: () => ({ notOnRoster: 'x', notInDepartment: 'y', unavailable: 'z' }),
    clock: new FakeClock(NOW),
    logger: silentLogger,
    basePath: '/roster/',
    secrets: [API_KEY],
    assets: { js: '', css: '' },
  });
  const answer = await call(panel.handler, {
    path: '/status.json',
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  return JSON.parse(answer.body);
}

describe('what an owner sees of sharing', () => {
  it('roster status: on or off, the reader and its lease, the version and the lag, the shared budget', () => {
    expect(shareStatusLine(follower, NOW)).toBe(
      "sharing: on as events, follower; reader main, lease 21 s left, version 812, this server 3 behind (read 1 s ago), complete; the key's shared budget: 14 this minute, 930 today",
    );
    expect(
      shareStatusLine({ ...follower, on: false, role: 'alone', off: 'oxmysql is not started' }, NOW),
    ).toBe('sharing: off for this server (oxmysql is not started); it reads the roster alone');
  });

  it('roster doctor: ✓ while sharing, ✗ when it was asked for and cannot', () => {
    expect(shareDoctorLine(follower, NOW)).toMatch(
      /^✓ sharing: on as events, following the shared roster; reader main/,
    );
    expect(shareDoctorLine({ ...follower, reader: 'events', role: 'reader' }, NOW)).toMatch(
      /reading the roster for the others; reader events \(this server\)/,
    );
    expect(
      shareDoctorLine({ ...follower, on: false, role: 'alone', off: 'oxmysql is not started' }, NOW),
    ).toMatch(
      /^✗ sharing: share\.enabled is true but this server cannot share the roster \(oxmysql is not started\)/,
    );
  });

  it('status.json has the sharing row; none when sharing is not turned on', async () => {
    const data = await statusJson(() => follower);
    expect(data.sharing).toEqual({
      on: true,
      role: 'follower',
      summary: 'on: events follows the roster main reads',
      server: 'events',
      reader: 'main',
      leaseLeftMs: 21_400,
      version: 812,
      lag: 3,
      syncedAt: NOW - 1_000,
      complete: true,
      budget: { minute: 14, day: 930 },
    });
    expect((await statusJson(undefined)).sharing).toBeNull();
  });
});
