/**
 * FXServer's request and response objects as `SetHttpHandler` hands them to a JS resource
 * (citizen-server-impl/src/ResourceHttpHandler.cpp: RequestWrap, ResponseWrap).
 */
export interface FxHttpRequest {
  /** `ip:port` of the peer (net-base PeerAddress::ToString). */
  address: string;
  /** Header names as the client sent them; one value per name. */
  headers: Record<string, string>;
  method: string;
  /** The path after `/<resource>`, starting with `/`; may carry a query string. */
  path: string;
  /** Called once with the whole body; never called when the request has none (Http1Server.cpp). */
  setDataHandler(handler: (data: string) => void): void;
  setCancelHandler(handler: () => void): void;
}

export interface FxHttpResponse {
  writeHead(code: number, headers?: Record<string, string | string[]>): void;
  write(data: string): void;
  send(data?: string): void;
}

export type FxHttpHandler = (request: FxHttpRequest, response: FxHttpResponse) => void;

/** A header by name, whatever case the client used. */
export function headerOf(request: FxHttpRequest, name: string): string | undefined {
  const headers = request.headers ?? {};
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === wanted) {
      const value = headers[key];
      return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : undefined;
    }
  }
  return undefined;
}

/** The value of one cookie from the `Cookie` header. */
export function cookieOf(request: FxHttpRequest, name: string): string | undefined {
  const header = headerOf(request, 'cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
