import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** A proxy's debug page: plain text quoting the request line and every header, credentials included. */
export function sendCredentialEcho(req: IncomingMessage, res: ServerResponse): void {
  const lines = Object.entries(req.headers).map(([name, value]) => `${name}: ${String(value)}`);
  res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(
    `authorization: ${req.headers.authorization ?? ''}\n${req.method} ${req.url}\n${lines.join('\n')}\n`,
  );
}

/** A 200 JSON answer of `bytes` bytes, written in chunks as the client reads (never held whole). */
export function sendHugeBody(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
  const chunk = Buffer.from(`${'{"id":"x"},'.repeat(6000)}`);
  let sent = 0;
  const write = (): void => {
    while (sent < bytes && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', write);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  res.write('{"success":true,"data":[');
  write();
}

/** Makes every `X-RateLimit-Reset` this answer sends read `value`, whatever the service set. */
export function overrideReset(res: ServerResponse, value: string): void {
  const writeHead = res.writeHead.bind(res) as (
    status: number,
    headers?: OutgoingHttpHeaders,
  ) => ServerResponse;
  res.writeHead = ((status: number, headers?: OutgoingHttpHeaders) => {
    const merged: OutgoingHttpHeaders = {};
    for (const [name, v] of Object.entries(headers ?? {}))
      if (name.toLowerCase() !== 'x-ratelimit-reset') merged[name] = v;
    merged['X-RateLimit-Reset'] = value;
    return writeHead(status, merged);
  }) as ServerResponse['writeHead'];
}
