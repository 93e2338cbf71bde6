import { afterEach, describe, expect, it } from 'vitest';
import { eventually, type Harness, startHarness, strangerLicense } from '../harness';

let h: Harness;
afterEach(async () => h?.close());

describe('smoke', () => {
  it('admits a member and refuses a stranger', async () => {
    h = await startHarness();
    await eventually(() => h.logText().includes('connected to the roster'));
    const member = h.mock.data.members[5]!;
    const alice = h.server.connectPlayer({
      name: 'Alice',
      identifiers: [member.gameLicense, 'ip:127.0.0.1'],
    });
    const bob = h.server.connectPlayer({ name: 'Bob', identifiers: [strangerLicense] });
    const [a, b] = await Promise.all([alice.decision, bob.decision]);
    console.log(h.logText());
    expect(a.admitted).toBe(true);
    expect(b.admitted).toBe(false);
  });
});
