import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import {
  applySharedFaults,
  controlCommand,
  countersReport,
  controlReply as reply,
  SHARED_FAULT_COMMANDS,
} from '../mock-http/control';
import type { MockCounters } from '../mock-http/mock-counters';
import type { MockDashboard } from './dashboard';
import type { MockFaults } from './faults';
import { MEMBER_STATUSES } from './records';

/** `POST /__mock/faults` body: each present field switches one fault (see README). */
const FaultCommand = z
  .object({
    ...SHARED_FAULT_COMMANDS,
    revokeKey: z.string(),
    expireKey: z.string(),
    planLost: z.boolean(),
    ipRefused: z.boolean(),
    inlineAssignments: z.boolean(),
  })
  .partial()
  .strict();

/** `POST /__mock/dashboard` body: one change as staff make it in the dashboard (audited). */
const DashboardCommand = z.union([
  z.object({ setStatus: z.object({ memberId: z.string(), status: z.enum(MEMBER_STATUSES) }) }).strict(),
  z.object({ setRank: z.object({ memberId: z.string(), rankId: z.string() }) }).strict(),
  z.object({ renameRank: z.object({ rankId: z.string(), name: z.string().min(1) }) }).strict(),
]);

function change(dashboard: MockDashboard, command: z.infer<typeof DashboardCommand>): unknown {
  if ('setStatus' in command)
    return dashboard.setStatus(command.setStatus.memberId, command.setStatus.status);
  if ('setRank' in command) return dashboard.setRank(command.setRank.memberId, command.setRank.rankId);
  return dashboard.renameRank(command.renameRank.rankId, command.renameRank.name);
}

function apply(faults: MockFaults, command: z.infer<typeof FaultCommand>): void {
  applySharedFaults(faults, command);
  if (command.revokeKey) faults.revokeKey(command.revokeKey);
  if (command.expireKey) faults.expireKey(command.expireKey);
  if (command.planLost !== undefined) faults.planLost(command.planLost);
  if (command.ipRefused !== undefined) faults.refuseIp(command.ipRefused);
  if (command.inlineAssignments !== undefined) faults.inlineAssignments(command.inlineAssignments);
}

/**
 * Test-only control surface for the CLI (`/__mock/...`): never counted, never rate limited,
 * never faulted, so a developer can always switch a fault back off.
 */
export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  deps: { faults: MockFaults; counters: MockCounters; dashboard: MockDashboard },
): Promise<void> {
  if (path === '/__mock/dashboard' && req.method === 'POST') {
    const command = await controlCommand(req, res, DashboardCommand);
    if (!command) return;
    try {
      return reply(res, 200, { ok: true, record: change(deps.dashboard, command) });
    } catch (error) {
      return reply(res, 400, { ok: false, error: (error as Error).message });
    }
  }
  if (path === '/__mock/faults' && req.method === 'POST') {
    const command = await controlCommand(req, res, FaultCommand);
    if (!command) return;
    try {
      apply(deps.faults, command);
    } catch (error) {
      return reply(res, 400, { ok: false, error: (error as Error).message });
    }
    return reply(res, 200, { ok: true });
  }
  if (path === '/__mock/counters' && req.method === 'GET')
    return reply(res, 200, countersReport(deps.counters));
  reply(res, 404, {
    ok: false,
    error: 'control endpoints: POST /__mock/faults, POST /__mock/dashboard, GET /__mock/counters',
  });
}
