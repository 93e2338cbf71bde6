import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { sendJson } from '../mock-http/json-replies';
import type { MockCounters } from '../mock-http/mock-counters';
import type { MockDashboard } from './dashboard';
import type { MockFaults } from './faults';
import { readJsonBody } from './json-body';
import { MEMBER_STATUSES } from './records';

/** `POST /__mock/faults` body: each present field switches one fault (see README). */
const FaultCommand = z
  .object({
    clear: z.boolean(),
    latencyMs: z.number().int().min(0),
    failNext: z.object({
      count: z.number().int().min(0),
      status: z.union([z.literal(500), z.literal(502), z.literal(503)]),
    }),
    internal: z.boolean(),
    malformedJson: z.boolean(),
    hang: z.boolean(),
    dropConnections: z.number().int().min(0),
    rateLimit: z.object({ count: z.number().int().min(0), retryAfter: z.number().int().min(0).nullable() }),
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

const forever = Number.POSITIVE_INFINITY;

function apply(faults: MockFaults, command: z.infer<typeof FaultCommand>): void {
  if (command.clear) faults.clear();
  if (command.latencyMs !== undefined) faults.latency(command.latencyMs);
  if (command.failNext) faults.failNext(command.failNext.count, command.failNext.status);
  if (command.internal !== undefined) faults.internal(command.internal ? forever : 0);
  if (command.malformedJson !== undefined) faults.malformedJson(command.malformedJson ? forever : 0);
  if (command.hang !== undefined) faults.hang(command.hang);
  if (command.dropConnections !== undefined) faults.dropConnection(command.dropConnections);
  if (command.rateLimit)
    faults.rateLimit(command.rateLimit.count, { retryAfter: command.rateLimit.retryAfter });
  if (command.revokeKey) faults.revokeKey(command.revokeKey);
  if (command.expireKey) faults.expireKey(command.expireKey);
  if (command.planLost !== undefined) faults.planLost(command.planLost);
  if (command.ipRefused !== undefined) faults.refuseIp(command.ipRefused);
  if (command.inlineAssignments !== undefined) faults.inlineAssignments(command.inlineAssignments);
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  sendJson(res, status, body, {}, false);
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
    const parsed = DashboardCommand.safeParse(await readJsonBody(req).catch(() => undefined));
    if (!parsed.success) return reply(res, 400, { ok: false, error: z.prettifyError(parsed.error) });
    try {
      return reply(res, 200, { ok: true, record: change(deps.dashboard, parsed.data) });
    } catch (error) {
      return reply(res, 400, { ok: false, error: (error as Error).message });
    }
  }
  if (path === '/__mock/faults' && req.method === 'POST') {
    const parsed = FaultCommand.safeParse(await readJsonBody(req).catch(() => undefined));
    if (!parsed.success) return reply(res, 400, { ok: false, error: z.prettifyError(parsed.error) });
    try {
      apply(deps.faults, parsed.data);
    } catch (error) {
      return reply(res, 400, { ok: false, error: (error as Error).message });
    }
    return reply(res, 200, { ok: true });
  }
  if (path === '/__mock/counters' && req.method === 'GET') {
    const { counters } = deps;
    return reply(res, 200, {
      total: counters.total,
      rateLimited: counters.rateLimited,
      errors: counters.errors,
      dropped: counters.dropped,
      byEndpoint: counters.byEndpoint(),
      byKey: counters.byKey(),
      recent: counters.log.slice(-50),
    });
  }
  reply(res, 404, {
    ok: false,
    error: 'control endpoints: POST /__mock/faults, POST /__mock/dashboard, GET /__mock/counters',
  });
}
