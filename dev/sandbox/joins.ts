import type { Decision, FxServer } from '../emulator';
import type { MockRoster } from '../mock-roster/server';
import { expectThat } from './expectation';

/** Connects a player and prints the decision, one line with how long it took. */
export type Join = (label: string, name: string, identifiers: string[]) => Promise<Decision>;

export function joiner(server: FxServer, print: (line: string) => void): Join {
  return async (label, name, identifiers) => {
    const t0 = performance.now();
    const decision = await server.connectPlayer({ name, identifiers }).decision;
    const ms = Math.round(performance.now() - t0);
    const outcome = decision.admitted ? `admitted as player ${decision.id}` : `refused: "${decision.reason}"`;
    print(`${label.padEnd(44)} -> ${outcome} (${ms} ms)`);
    return decision;
  };
}

/** The members the scripted joins use: Alice, Carol and the admin Grace (before the burst's members). */
export function scriptedMembers(mock: MockRoster) {
  const { members } = mock.data;
  // An ACTIVE member outside LSPD: as an admin she sets LSPD ranks through `roster.manage`, not rank.
  const admin = members
    .slice(5, 10)
    .find(
      (m) =>
        m.status === 'ACTIVE' && !mock.data.assignmentsOf(m.id).some((a) => a.departmentId === 'dept_lspd'),
    );
  if (!admin) throw new Error('the mock roster has no ACTIVE member outside LSPD among members 5–9');
  return { member: members[0]!, suspended: mock.data.suspendedMember(), admin };
}

/** The four kinds of join (member, not on the roster, suspended, no license) and the admin's. */
export async function runJoins(mock: MockRoster, join: Join): Promise<{ alice: number; grace: number }> {
  const { member, suspended, admin } = scriptedMembers(mock);
  const community = mock.community.name;
  const alice = await join(`Alice (member ${member.id}, ${member.status})`, 'Alice', [
    member.gameLicense,
    'ip:127.0.0.2',
  ]);
  expectThat(alice.admitted, `the ACTIVE member ${member.id} was refused: ${JSON.stringify(alice)}`);
  const bob = await join('Bob (not on the roster)', 'Bob', [mock.data.nonMemberLicense(), 'ip:127.0.0.3']);
  expectThat(
    !bob.admitted && bob.reason.includes(`not on the ${community} roster`),
    `the non-member should be refused with the roster message, got ${JSON.stringify(bob)}`,
  );
  const carol = await join(`Carol (member ${suspended.id}, ${suspended.status})`, 'Carol', [
    suspended.gameLicense,
    'ip:127.0.0.4',
  ]);
  expectThat(
    !carol.admitted && carol.reason.includes('SUSPENDED'),
    `the suspended member should be refused naming the status, got ${JSON.stringify(carol)}`,
  );
  const dave = await join('Dave (no license: identifier)', 'Dave', ['discord:123456789', 'ip:127.0.0.5']);
  expectThat(
    !dave.admitted && dave.reason.includes('No Rockstar license'),
    `the player without a license should be refused with the no-license message, got ${JSON.stringify(dave)}`,
  );
  const grace = await join(`Grace (member ${admin.id}, ${admin.status}, admin)`, 'Grace', [
    admin.gameLicense,
    'ip:127.0.0.8',
  ]);
  expectThat(grace.admitted, `the ACTIVE member ${admin.id} was refused: ${JSON.stringify(grace)}`);
  return { alice: alice.id, grace: grace.id };
}
