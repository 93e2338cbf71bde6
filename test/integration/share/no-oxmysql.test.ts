import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Harness, startHarness } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('share.enabled without oxmysql', () => {
  it('says so in one console line, roster doctor shows ✗, and the resource reads the roster alone', async () => {
    h = await startHarness({ members: 50, config: { share: { enabled: true, serverName: 'main' } } });
    const harness = h;
    await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 15_000);
    expect(harness.logText().match(/share\.enabled is true but oxmysql is not started/g)).toHaveLength(1);
    const from = harness.server.log.lines.length;
    harness.server.executeCommand('roster doctor');
    const line = await eventually(
      () => harness.server.log.lines.slice(from).find((l) => l.includes('sharing:')),
      15_000,
    );
    expect(line).toMatch(
      /✗ sharing: share\.enabled is true but this server cannot share the roster \(oxmysql is not started\)/,
    );
  });
});
