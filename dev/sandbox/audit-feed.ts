import type { ScriptResource } from '../emulator';
import type { MockRoster } from '../mock-roster/server';
import { answerLine, type RosterExports } from './answers';
import { expectThat, waitFor } from './expectation';
import { aceAllowed, aceLine } from './principals';
import type { RosterEventLog } from './roster-events';
import { MEMBER_ACE } from './server-cfg';

export interface DashboardChangeDeps {
  caller: ScriptResource;
  roster: RosterExports;
  mock: MockRoster;
  events: RosterEventLog;
  print: (line: string) => void;
  /** An online ACTIVE member the roster staff suspends. */
  player: { src: number; memberId: string };
  /** The id of the key this server uses: its requests are told apart from other servers'. */
  keyId: string;
}

/**
 * Changes made on the roster: staff suspend an online member in the dashboard
 * (the mock's control endpoint, which writes the audit entry the service would); the resource reads
 * it from the audit log on its own and re-reads that member. Nothing here asks it to.
 */
export async function runDashboardChange(deps: DashboardChangeDeps): Promise<void> {
  const { caller, roster, mock, events, print } = deps;
  const { src, memberId } = deps.player;
  const ask = (call: string, value: unknown) => print(answerLine(call, value));
  ask(`exports.roster.isOnRoster(${src})`, roster.isOnRoster(src));
  print(aceLine(caller, src, MEMBER_ACE));
  expectThat(aceAllowed(caller, src, MEMBER_ACE), `member player ${src} lacks ${MEMBER_ACE} before`);

  const body = { setStatus: { memberId, status: 'SUSPENDED' } };
  const changedAt = Date.now();
  const asked = performance.now();
  const response = await fetch(`${mock.url}/__mock/dashboard`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  print(
    `dashboard: staff suspend ${memberId} (player ${src}): POST /__mock/dashboard ${JSON.stringify(body)} -> ${response.status}`,
  );
  if (!response.ok) expectThat(false, `the mock's dashboard refused the change: ${await response.text()}`);

  const update = await waitFor(`roster:playerUpdated(${src}) with the suspension`, () =>
    events.updates.find((u) => u.src === src && u.at >= asked && u.member?.status === 'SUSPENDED'),
  );
  const seenAt = Date.now();
  // What the resource asked the roster for between the change and the event, in order.
  const requests = mock.counters.log.filter(
    (r) => r.time >= changedAt && r.time <= seenAt && r.keyId === deps.keyId && r.path.startsWith('/api/'),
  );
  const audit = requests.findIndex((r) => r.endpoint === 'GET /api/v1/audit-logs');
  const reread = requests.findIndex((r, i) => i > audit && r.endpoint === 'GET /api/v1/members');
  print(
    `the resource's requests since the change: ${requests.map((r) => `${r.endpoint} (+${r.time - changedAt} ms)`).join(', ')}`,
  );
  expectThat(
    audit >= 0 && reread > audit,
    'the suspension did not arrive as an audit log read followed by a re-read of the member',
  );
  print(
    `event roster:playerUpdated(${src}): status ${update.previous?.status ?? 'none'} -> ${update.member?.status} (${Math.round(update.at - asked)} ms after the dashboard change, through the audit feed)`,
  );
  ask(`exports.roster.isOnRoster(${src}) now`, roster.isOnRoster(src));
  print(aceLine(caller, src, MEMBER_ACE, ' now'));
  expectThat(
    !roster.isOnRoster(src) && !aceAllowed(caller, src, MEMBER_ACE),
    `the suspended player ${src} is still on the roster or allowed ${MEMBER_ACE}`,
  );
}
