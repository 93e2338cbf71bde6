import type { FxHttpHandler, FxHttpRequest } from '../../../src/platform/fx-http';

export interface FakeReply {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

export interface FakeRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  address?: string;
  body?: string;
}

/** Calls a handler the way FXServer does: request/response objects, the body through setDataHandler. */
export function call(handler: FxHttpHandler, fake: FakeRequest): Promise<FakeReply> {
  return new Promise((resolve, reject) => {
    let head: { status: number; headers: Record<string, string | string[]> } | null = null;
    let body = '';
    const headers = { ...(fake.headers ?? {}) };
    if (fake.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(fake.body));
    const request: FxHttpRequest = {
      address: fake.address ?? '127.0.0.1:50000',
      headers,
      method: fake.method ?? 'GET',
      path: fake.path,
      setDataHandler(handler) {
        if (fake.body !== undefined) setTimeout(() => handler(fake.body!), 0);
      },
      setCancelHandler() {},
    };
    handler(request, {
      writeHead(status, h = {}) {
        if (head) reject(new Error('writeHead twice'));
        head = { status, headers: h };
      },
      write(data) {
        body += data;
      },
      send(data = '') {
        if (!head) return reject(new Error('send before writeHead'));
        resolve({ ...head, body: body + data });
      },
    });
  });
}

export function header(reply: FakeReply, name: string): string | undefined {
  for (const [key, value] of Object.entries(reply.headers)) {
    if (key.toLowerCase() === name.toLowerCase()) return Array.isArray(value) ? value.join(', ') : value;
  }
  return undefined;
}
