import type { IncomingMessage } from 'node:http';

/** Builds the mock's own validation error naming the field (`Content-Type` or `body`) and why. */
export type InvalidBody = (field: string, reason: string) => Error;

/** Reads the body as JSON, at most `limit` bytes; rejects with `invalid(...)` when it is not usable. */
export async function readJsonBody(
  req: IncomingMessage,
  limit: number,
  invalid: InvalidBody,
): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw invalid('Content-Type', 'must be application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw invalid('body', 'is too large');
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw invalid('body', 'is not valid JSON');
  }
}
