import type { FxServer } from '../emulator';
import type { MockMember } from '../mock-roster/records';
import { type MockRoster, startMockRoster } from '../mock-roster/server';
import { mirrorComplete, rosterReady, sleep, startGateServer } from './gate-servers';
import type { Progress } from './progress';
import { SERVICE_LATENCY_MS } from './storm-scenario';

/** `refresh.auditSeconds` here: the bound is this and one pass (a pass every interval). */
export const STAMPS_AUDIT_SECONDS = 15;
const HOUR_MS = 3_600_000;
/**
 * The entries written → the suspensions: past the overlap the feed reads the log with (two minutes
 * today) and an audit interval more, so its position is wherever the entries left it.
 */
const SETTLE_MS = 150_000;
/** Members suspended together; one of them tries to join for the first time every `TRY_EVERY_MS`. */
const SUSPENDED = 40;
const TRY_EVERY_MS = 1_500;

export interface FutureStampsResult {
  /** `refresh.auditSeconds` + one pass: the bound a suspension must be honoured within. */
  boundMs: number;
  /** Future entries written → the suspensions. */
  settleMs: number;
  /**
   * Suspension → the first try from which on every suspended member was refused (the try's
   * connection); Infinity: the last try was still admitted.
   */
  refusedWithinMs: number;
  /** How long after the suspension the last one tried. */
  triedMs: number;
  /** Suspended members admitted at their first try. */
  admitted: number;
  tries: number;
}

/**
 * One node of the service with a fast clock: with the mirror complete and the audit feed running,
 * two audit entries stamped an hour ahead (a second apart) are written, about members as any
 * change. Once the feed has read them and its overlap has passed (`SETTLE_MS`), 40 offline members
 * are suspended in the dashboard at once (entries stamped on time), and every 1.5 s one of them
 * tries to join for the first time, so each try says whether the suspension had reached the door
 * by then (a join that is admitted may itself have its record read again; a first try cannot).
 * Measured: from when on every try is refused, over twice the bound.
 */
export async function futureStamps(progress?: Progress): Promise<FutureStampsResult> {
  const mock = await startMockRoster({ port: 0, members: 1_000, seed: 1 });
  mock.faults.latency(SERVICE_LATENCY_MS);
  const config = { refresh: { auditSeconds: STAMPS_AUDIT_SECONDS } };
  const gate = await startGateServer('roster', mock, { config });
  const boundMs = 2 * STAMPS_AUDIT_SECONDS * 1000;
  try {
    await rosterReady(gate, mock);
    await mirrorComplete(gate);
    const active = mock.data.members.filter((m) => m.status === 'ACTIVE');
    aheadOfTime(mock, active[0]!, 1, HOUR_MS);
    aheadOfTime(mock, active[1]!, 2, HOUR_MS + 1_000);
    progress?.update(
      `future-stamped audit entries: written, the suspensions follow in ${SETTLE_MS / 1000} s…`,
    );
    await sleep(SETTLE_MS);
    const suspended = active.slice(10, 10 + SUSPENDED);
    for (const member of suspended) mock.dashboard.setStatus(member.id, 'SUSPENDED');
    const suspendedAt = Date.now();
    const tries: { at: number; admitted: boolean }[] = [];
    for (const [n, member] of suspended.entries()) {
      await sleep(Math.max(0, suspendedAt + n * TRY_EVERY_MS - Date.now()));
      progress?.update(`future-stamped audit entries: suspended member ${n + 1} of ${SUSPENDED} tries`);
      const at = Date.now() - suspendedAt;
      tries.push({ at, admitted: await tryJoin(gate.server, member, n) });
    }
    const lastAdmitted = tries.findLastIndex((t) => t.admitted);
    const refusedFrom = tries[lastAdmitted + 1];
    return {
      boundMs,
      settleMs: SETTLE_MS,
      refusedWithinMs: refusedFrom?.at ?? Number.POSITIVE_INFINITY,
      triedMs: tries.at(-1)?.at ?? 0,
      admitted: tries.filter((t) => t.admitted).length,
      tries: tries.length,
    };
  } finally {
    gate.close();
    await mock.close();
  }
}

/** An entry about `member` as the service writes it, but stamped `aheadMs` ahead of the clock. */
function aheadOfTime(mock: MockRoster, member: MockMember, n: number, aheadMs: number): void {
  mock.data.appendRawAudit({
    id: `aud_ahead_${n}`,
    action: 'member.update',
    resourceType: 'member',
    resourceId: member.id,
    changes: { callsign: { from: null, to: `AHEAD-${n}` } },
    source: 'DASHBOARD',
    createdAt: new Date(Date.now() + aheadMs).toISOString(),
  });
}

/** Connects `member` once: true when admitted (and dropped again at once), false when refused. */
async function tryJoin(server: FxServer, member: MockMember, attempt: number): Promise<boolean> {
  const connection = server.connectPlayer({
    name: member.displayName,
    identifiers: [member.gameLicense, `ip:10.77.${(attempt >> 8) & 255}.${attempt & 255}`],
  });
  const decision = await connection.decision;
  if (!decision.admitted) return false;
  server.dropPlayer(decision.id, 'Exiting');
  return true;
}
