import type { ServerResponse } from 'node:http';

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
