/**
 * One license, several members: a member who left (TERMINATED) and came back (a new ACTIVE
 * membership) is listed twice under one license. With the mirror off, every join is looked up: the
 * most recent membership decides whatever the order the service lists them in, the console is
 * warned once per license, and `roster doctor` lists the license.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MockMember } from '../../../dev/mock-roster/records';
import { partialLicense } from '../../../src/platform/partial-license';
import { eventually, type Harness, startHarness } from '../harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const TOKEN = 'claimed-license-panel-token-0123';

/** Roster with the owner's panel on and the mirror off, connected to the mock service. */
async function startRoster(): Promise<Harness> {
  const harness = await startHarness({
    startResource: false,
    config: { mirror: { enabled: false }, cache: { ttlSeconds: 1 } },
  });
  harness.server.executeCommand(`set roster_web_token "${TOKEN}"`);
  harness.server.startResource('roster', harness.folder);
  await eventually(() => harness.logText().includes('connected to the roster'));
  return harness;
}

/** The console's warnings that name `license`. */
const warningsAbout = (harness: Harness, license: string) =>
  harness.server.log.lines.filter((line) => line.includes(license) && /most recent membership/.test(line));

const memberRequests = (harness: Harness) => harness.mock.counters.byEndpoint()['GET /api/v1/members'] ?? 0;

async function join(harness: Harness, member: MockMember, name: string) {
  const decision = await harness.server.connectPlayer({ name, identifiers: [member.gameLicense] }).decision;
  if (!decision.admitted) throw new Error(`${name} was refused: ${decision.reason}`);
  const got = await eventually(
    () => (harness.caller.exports.roster!.getMember!(decision.id) as { id: string } | null) ?? undefined,
  );
  return { id: decision.id, member: got.id };
}

describe('one license, several members (mirror off: every join looked up)', () => {
  it('admits the returning member whichever the service lists first, warns once per license, and doctor lists it', async () => {
    h = await startRoster();
    const store = h.mock.data;
    const left = store.memberWithStatus('TERMINATED');
    // A second member who left, changed quietly: the mirror is off, nothing reads the audit log.
    const alsoLeft = store.setMemberStatus(store.memberWithStatus('ACTIVE').id, 'TERMINATED');
    const back = store.rejoin(left.id, { displayName: 'Back Again' }); // listed after the old one
    const alsoBack = store.rejoin(alsoLeft.id, { listedFirst: true }); // listed before it

    const first = await join(h, back, 'Returning');
    expect(first.member).toBe(back.id);
    const second = await join(h, alsoBack, 'AlsoReturning');
    expect(second.member).toBe(alsoBack.id);
    expect(warningsAbout(h, back.gameLicense)).toHaveLength(1);
    expect(warningsAbout(h, alsoBack.gameLicense)).toHaveLength(1);

    // The same player again once the cached answer has expired: looked up again, not warned again.
    h.server.dropPlayer(first.id);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const before = memberRequests(h);
    const again = await join(h, back, 'Returning');
    expect(again.member).toBe(back.id);
    expect(memberRequests(h)).toBeGreaterThan(before);
    expect(warningsAbout(h, back.gameLicense)).toHaveLength(1);

    const from = h.server.log.lines.length;
    h.server.executeCommand('roster doctor');
    const doctor = await eventually(() => {
      const text = h!.server.log.lines.slice(from).join('\n');
      return /licenses claimed by several members[\s\S]*decides[\s\S]*decides/.test(text) ? text : undefined;
    }, 8000);
    expect(doctor).toContain('! licenses claimed by several members: 2;');
    expect(doctor).toContain(
      `${partialLicense(back.gameLicense)}: ${back.id} decides (members ${back.id}, ${left.id}).`,
    );
    expect(doctor).toContain(
      `${partialLicense(alsoBack.gameLicense)}: ${alsoBack.id} decides (members ${alsoBack.id}, ${alsoLeft.id}).`,
    );

    // The panel's status data lists them too, each license in part.
    const response = await fetch(`${h.server.httpUrl}/roster/status.json`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const body = await response.text();
    expect(JSON.parse(body).claimedLicenses).toEqual({
      licenses: [
        {
          license: partialLicense(back.gameLicense),
          memberIds: [back.id, left.id],
          members: 2,
          deciding: back.id,
        },
        {
          license: partialLicense(alsoBack.gameLicense),
          memberIds: [alsoBack.id, alsoLeft.id],
          members: 2,
          deciding: alsoBack.id,
        },
      ],
      more: false,
    });
    expect(body).not.toContain(back.gameLicense);
  });
});
