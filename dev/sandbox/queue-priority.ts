import type { FxServer } from '../emulator';
import type { MockMember } from '../mock-roster/records';
import type { MockRoster } from '../mock-roster/server';
import { placements, startConnectQueue } from '../stand-ins/connect-queue';
import { answerLine, type RosterExports } from './answers';
import { expectThat, waitFor } from './expectation';
import type { Join } from './joins';

/** The sandbox's `queue.priority` (first match wins): senior LSPD, then SAFR, then any member. */
export const PRIORITY_RULES = [
  { department: 'LSPD', minRank: 'Sergeant', power: 50 },
  { department: 'SAFR', power: 40 },
  { power: 10 },
];

export interface QueuePartDeps {
  server: FxServer;
  mock: MockRoster;
  roster: RosterExports;
  join: Join;
  print: (line: string) => void;
  /** Roster members from this index on are not online. */
  firstFreeMember: number;
}

/** The member's rank position in a department (1 = most senior), or null outside it. */
function positionIn(mock: MockRoster, member: MockMember, departmentId: string): number | null {
  const held = mock.data.assignmentsOf(member.id).find((a) => a.departmentId === departmentId);
  if (!held) return null;
  return held.rankId ? (mock.data.rank(held.rankId)?.position ?? null) : Number.POSITIVE_INFINITY;
}

/**
 * Queue priority (ConnectQueue in front of the gate): ConnectQueue starts as an owner adds it,
 * the resource registers with its `OnJoin`, and three members connecting at once are placed with
 * the power of the first rule they match, set from the gate's own answer.
 */
export async function runQueuePart(deps: QueuePartDeps): Promise<void> {
  const { server, mock, roster, join, print } = deps;
  print(`config.json: queue.priority ${JSON.stringify(PRIORITY_RULES)}`);
  const queue = await startConnectQueue(server);
  const found = await waitFor('the resource to find ConnectQueue', () =>
    server.log.of('roster').find((line) => line.startsWith('connectqueue found')),
  );
  print(`ConnectQueue started (the stand-in in dev/stand-ins) -> [roster] ${found}`);

  const sergeant = mock.data.rankByName('LSPD', 'Sergeant').position;
  const free = mock.data.members.slice(deps.firstFreeMember).filter((m) => m.status === 'ACTIVE');
  const senior = (m: MockMember) =>
    (positionIn(mock, m, 'dept_lspd') ?? Number.POSITIVE_INFINITY) <= sergeant;
  const medic = (m: MockMember) => !senior(m) && positionIn(mock, m, 'dept_safr') !== null;
  const picked = [
    { name: 'Hank', label: 'LSPD Sergeant or above', power: 50, member: free.find(senior) },
    { name: 'Iris', label: 'SAFR', power: 40, member: free.find(medic) },
    {
      name: 'Jules',
      label: 'any other member',
      power: 10,
      member: free.find((m) => !senior(m) && !medic(m)),
    },
  ];
  const decisions = await Promise.all(
    picked.map(({ name, label, member }, index) => {
      expectThat(member !== undefined, `no free ACTIVE member is ${label}`);
      return join(`${name} (member ${member.id}, ${label})`, name, [
        member.gameLicense,
        `ip:127.0.0.${30 + index}`,
      ]);
    }),
  );
  const placed = await placements(queue);
  for (const [index, { name, power, member }] of picked.entries()) {
    const decision = decisions[index]!;
    expectThat(decision.admitted, `${name} was refused: ${JSON.stringify(decision)}`);
    const place = placed.find((p) => p.id === member!.gameLicense);
    print(`ConnectQueue placed ${name} (player ${decision.id}) with power ${place?.power ?? 'none'}`);
    expectThat(
      place?.power === power,
      `ConnectQueue placed ${name} with power ${place?.power}, expected ${power}`,
    );
    print(answerLine(`exports.roster.getPriority(${decision.id})`, roster.getPriority(decision.id)));
  }
}
