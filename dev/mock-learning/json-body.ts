import type { IncomingMessage } from 'node:http';
import { validationError } from './api-error';

const BODY_LIMIT = 100_000;

/** Reads the body as JSON; validation_error naming `Content-Type` or `body` when it is not usable. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw validationError('Content-Type', 'must be application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw validationError('body', 'is too large');
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw validationError('body', 'is not valid JSON');
  }
}
