import type { IncomingMessage } from 'node:http';

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

/** The caller's address as allowlists and per-address buckets see it (IPv4-mapped IPv6 reduced to IPv4). */
export function callerAddress(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}
