import type { IncomingMessage, ServerResponse } from 'node:http';
import { validationError } from './api-error';
import type { RateDecision } from './rate-limiter';

const BODY_LIMIT = 1_000_000;

export function rateHeaders(rate: RateDecision, retryAfter: number | null): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(rate.limit),
    'X-RateLimit-Remaining': String(rate.remaining),
    'X-RateLimit-Reset': String(rate.reset),
  };
  if (retryAfter !== null) headers['Retry-After'] = String(retryAfter);
  return headers;
}

/** Writes a JSON body; `truncate` cuts it in half to play a malformed response. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
  truncate: boolean,
): void {
  let text = JSON.stringify(body);
  if (truncate) text = text.slice(0, Math.floor(text.length / 2));
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8' });
  res.end(text);
}

/** What a proxy in front of the service answers with when the service is down: HTML, not the envelope. */
export function sendGatewayPage(res: ServerResponse, status: 502 | 503): void {
  const title = status === 502 ? '502 Bad Gateway' : '503 Service Temporarily Unavailable';
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(
    `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center></body></html>\n`,
  );
}

/** Reads the body as JSON; validation_error naming `Content-Type` or `body` when it is not usable JSON. */
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

/** The API key from `Authorization: Bearer` or `X-API-Key` (both accepted). */
export function tokenOf(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (auth) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return bearer?.[1] ?? null;
  }
  const header = req.headers['x-api-key'];
  return typeof header === 'string' && header.trim() !== '' ? header.trim() : null;
}

/** The caller's address as the allowlist compares it (IPv4-mapped IPv6 reduced to IPv4). */
export function callerAddress(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}
