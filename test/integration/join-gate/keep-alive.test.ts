import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Harness, startHarness } from '../harness';
import { IdleClosingProxy } from './idle-closing-proxy';

/**
 * The HTTP client's sockets under FXServer's timers (the emulator's timers follow timer.js:
 * `refresh()` of a fired timer does nothing), against a server that closes idle sockets without
 * saying when.
 */
let h: Harness | undefined;
let proxy: IdleClosingProxy | undefined;
afterEach(async () => {
  await h?.close();
  await proxy?.close();
  h = undefined;
  proxy = undefined;
});

describe('keep-alive sockets', () => {
  it('a request on a pooled socket the server closed is sent again at once, not counted as an outage', async () => {
    const harness = await startHarness({ startResource: false });
    h = harness;
    proxy = await IdleClosingProxy.start(harness.mock.url, 60_000);
    harness.server.convars.set('roster_base_url', proxy.url);
    harness.server.convars.set('roster_log_level', 'debug');
    harness.server.startResource('roster', harness.folder);
    await eventually(() => harness.logText().includes('connected to the roster'));
    const [first, second] = harness.mock.data.members.filter((m) => m.status === 'ACTIVE');
    const a = await harness.server.connectPlayer({ name: 'A', identifiers: [first!.gameLicense] }).decision;
    expect(a.admitted).toBe(true);

    proxy.closeOnReuse = 1;
    const b = await harness.server.connectPlayer({ name: 'B', identifiers: [second!.gameLicense] }).decision;
    expect(proxy.dropped).toBe(1);
    expect(b.admitted).toBe(true);
    expect(harness.logText()).toMatch(/B admitted \(roster\)/);
    // No outage: no retry after a backoff (each would print `Retry N of M in D ms` at this debug
    // level), no warning; the resend costs a connect, not a backoff.
    expect(harness.logText()).not.toMatch(/Retry \d of|Could not reach/);
  });

  it('the client closes an idle socket itself before a server that never says its keep-alive (5 s) does', async () => {
    const harness = await startHarness({ startResource: false });
    h = harness;
    proxy = await IdleClosingProxy.start(harness.mock.url, 5000);
    harness.server.convars.set('roster_base_url', proxy.url);
    harness.server.startResource('roster', harness.folder);
    await eventually(() => harness.logText().includes('connected to the roster'));
    const closedBy = proxy.closedBy;
    await eventually(() => closedBy.client + closedBy.server > 0, 8000);
    expect(closedBy).toEqual({ client: expect.any(Number), server: 0 });
    expect(closedBy.client).toBeGreaterThan(0);
  }, 15_000);
});
