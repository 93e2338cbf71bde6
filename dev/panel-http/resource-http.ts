// Serves a resource's `SetHttpHandler` function over real loopback HTTP the way FXServer does
// (citizen-server-impl/src/ResourceHttpHandler.cpp), until the emulator serves it itself:
// a shim loaded before the bundle captures the handler, and a Node HTTP server hands each request
// to it as FXServer's RequestWrap/ResponseWrap.
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FxServer } from '../emulator';
import { manifestServerScripts } from '../emulator/manifest';

const SHIM = 'set-http-handler-shim.js';
const HANDLER = '__setHttpHandler';

/** Writes the shim into the resource folder; returns the script list to start the resource with. */
export function withHttpShim(folder: string): string[] {
  writeFileSync(
    path.join(folder, SHIM),
    `// SET_HTTP_HANDLER keeps the handler for the resource (ResourceHttpHandler.cpp, SetHandlerRef).\nSetHttpHandler = function (handler) { globalThis.${HANDLER} = handler; };\n`,
  );
  return [SHIM, ...manifestServerScripts(folder)];
}

export interface ResourceHttp {
  /** `http://127.0.0.1:<port>`: the game port's HTTP server. */
  origin: string;
  close(): Promise<void>;
}

type Handler = (request: unknown, response: unknown) => void;

/** Routes `/<resource>/…` to the resource's handler with the prefix stripped, as FXServer does. */
export async function serveResourceHttp(server: FxServer, resource: string): Promise<ResourceHttp> {
  const http = createServer((req, res) => route(server, resource, req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

function route(server: FxServer, resource: string, req: IncomingMessage, res: ServerResponse): void {
  const prefix = `/${resource}/`;
  const url = req.url ?? '/';
  const handler = server.resource(resource)?.realm.global[HANDLER] as Handler | undefined;
  if (!url.startsWith(prefix) || !handler) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found.');
    return;
  }
  // One value per header name: the wrap is a std::map<string, string>.
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (!(name in headers)) headers[name] = req.rawHeaders[i + 1]!;
  }
  const chunks: Buffer[] = [];
  let dataHandler: ((data: string) => void) | null = null;
  let body: string | null = null;
  const hasBody =
    Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    body = Buffer.concat(chunks).toString('utf8');
    // Http1Server.cpp: the data handler is called once with the whole body, never for no body.
    if (hasBody && dataHandler) dataHandler(body);
  });
  let cancel: (() => void) | null = null;
  res.on('close', () => {
    if (!res.writableFinished) cancel?.();
  });
  let head: { code: number; headers: Record<string, string | string[]> } | null = null;
  const request = {
    address: `${req.socket.remoteAddress}:${req.socket.remotePort}`,
    headers,
    method: req.method ?? 'GET',
    path: `/${url.slice(prefix.length)}`,
    setDataHandler(fn: (data: string) => void) {
      // HttpRequest::SetDataHandler: pending data is handed over at once.
      if (hasBody && body !== null) fn(body);
      else dataHandler = fn;
    },
    setCancelHandler(fn: () => void) {
      cancel = fn;
    },
  };
  const response = {
    writeHead(code: number, h?: Record<string, string | string[]>) {
      head = { code, headers: h ?? {} };
    },
    write(data: string) {
      if (!res.headersSent) res.writeHead(head?.code ?? 200, head?.headers);
      res.write(String(data));
    },
    send(data?: string) {
      if (!res.headersSent) res.writeHead(head?.code ?? 200, head?.headers);
      res.end(data === undefined ? undefined : String(data));
    },
  };
  try {
    handler(request, response);
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
}
