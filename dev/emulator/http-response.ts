import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * FXServer's HTTP/1.1 response (net-http-server/src/HttpServer.cpp `HttpResponse`, Http1Server.cpp
 * `Http1Response`) written through a Node ServerResponse: the status and headers are kept until
 * the head goes out, the first write decides chunked or Content-Length, and `End()` with nothing
 * written before sends nothing at all.
 */
export class FxHttpResponse {
  statusCode = 200;
  /** HeaderMap: names compare without case; SetHeader replaces every value of the name. */
  private readonly headers = new Map<string, { name: string; values: string[] }>();
  private sentHeaders = false;
  private sentWriteHead = false;
  private chunked = false;
  /** `End()` ran (HttpResponse::End): the cancel handler is cleared, later calls change nothing. */
  ended = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    /** Http1Server.cpp: from the 11th request on one connection, the answer closes it. */
    private readonly disableKeepAlive: boolean,
  ) {}

  setHeader(name: string, value: string | readonly string[]): void {
    this.headers.set(name.toLowerCase(), { name, values: typeof value === 'string' ? [value] : [...value] });
  }

  get headSent(): boolean {
    return this.sentHeaders;
  }

  /** Http1Response::WriteHead: once; the Connection line follows the request's Connection header. */
  writeHead(): void {
    if (this.sentHeaders || this.ended) return;
    this.beforeWriteHead(0);
    // `_strnicmp(connection, "keep-alive", connection.size())`: absent, or any prefix of it, keeps alive.
    const connection = (this.req.headers.connection ?? 'keep-alive').toLowerCase();
    if (!'keep-alive'.startsWith(connection) || this.disableKeepAlive) this.setHeader('Connection', 'close');
    for (const { name, values } of this.headers.values()) {
      this.res.setHeader(name, values.length === 1 ? values[0]! : values);
    }
    this.res.writeHead(this.statusCode);
    this.res.flushHeaders();
    this.sentHeaders = true;
  }

  /** HttpResponse::Write: the head goes out first if it has not. */
  write(data: Uint8Array): void {
    if (this.ended || this.res.writableEnded) return;
    this.beforeWriteHead(data.byteLength);
    if (!this.sentHeaders) this.writeHead();
    // Http1Response::WriteOutInternal: no zero-sized chunk.
    if (this.chunked && data.byteLength === 0) return;
    this.res.write(data);
  }

  /**
   * Http1Response::End: the terminating chunk when chunked. With no head written before (a bare
   * `send()` and no writeHead on HTTP/1.1, or no write on HTTP/1.0) nothing reaches the client,
   * which waits until the connection times out.
   */
  end(data?: Uint8Array): void {
    if (this.ended) return;
    if (data) this.write(data);
    this.ended = true;
    if (this.sentHeaders && !this.res.writableEnded) this.res.end();
  }

  /**
   * Http1Response::BeforeWriteHead, once: HTTP/1.0 (or `Transfer-Encoding: identity`) gets a
   * Content-Length of this first length; everything else is chunked and loses any Content-Length.
   */
  private beforeWriteHead(length: number): void {
    if (this.sentWriteHead) return;
    this.sentWriteHead = true;
    const te = this.headers.get('transfer-encoding')?.values.join(',') ?? '';
    const host = this.req.headers.host ?? '';
    if (this.req.httpVersion === '1.0' || host.includes('rockstargames.com') || te.includes('identity')) {
      if (!this.headers.has('content-length')) this.setHeader('Content-Length', String(length));
      this.headers.delete('transfer-encoding');
    } else {
      this.setHeader('Transfer-Encoding', 'chunked');
      this.headers.delete('content-length');
      this.chunked = true;
    }
  }
}
