import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { FaultSwitches } from './fault-switches';
import { readJsonBody } from './json-body';
import { sendJson } from './json-replies';
import type { MockCounters } from './mock-counters';

/** Fields of a `POST /__mock/faults` body every mock takes: each present one switches one shared fault. */
export const SHARED_FAULT_COMMANDS = {
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
};
const SharedFaultCommand = z.object(SHARED_FAULT_COMMANDS).partial();

const forever = Number.POSITIVE_INFINITY;

/** Switches the shared faults a command names (`clear` first). */
export function applySharedFaults(faults: FaultSwitches, command: z.infer<typeof SharedFaultCommand>): void {
  if (command.clear) faults.clear();
  if (command.latencyMs !== undefined) faults.latency(command.latencyMs);
  if (command.failNext) faults.failNext(command.failNext.count, command.failNext.status);
  if (command.internal !== undefined) faults.internal(command.internal ? forever : 0);
  if (command.malformedJson !== undefined) faults.malformedJson(command.malformedJson ? forever : 0);
  if (command.hang !== undefined) faults.hang(command.hang);
  if (command.dropConnections !== undefined) faults.dropConnection(command.dropConnections);
  if (command.rateLimit)
    faults.rateLimit(command.rateLimit.count, { retryAfter: command.rateLimit.retryAfter });
}

/** `GET /__mock/counters`: the totals and the last 50 requests. */
export function countersReport(counters: MockCounters): object {
  return {
    total: counters.total,
    rateLimited: counters.rateLimited,
    errors: counters.errors,
    dropped: counters.dropped,
    byEndpoint: counters.byEndpoint(),
    byKey: counters.byKey(),
    recent: counters.log.slice(-50),
  };
}

/** A control endpoint's JSON answer (plain, never faulted). */
export function controlReply(res: ServerResponse, status: number, body: unknown): void {
  sendJson(res, status, body, {}, false);
}

const CONTROL_BODY_LIMIT = 1_000_000;

/** A control command's body as `schema` reads it; a 400 naming what is wrong (already answered) when it does not. */
export async function controlCommand<T>(
  req: IncomingMessage,
  res: ServerResponse,
  schema: z.ZodType<T>,
): Promise<T | null> {
  const body = await readJsonBody(
    req,
    CONTROL_BODY_LIMIT,
    (field, reason) => new Error(`${field}: ${reason}`),
  ).catch(() => undefined);
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  controlReply(res, 400, { ok: false, error: z.prettifyError(parsed.error) });
  return null;
}
