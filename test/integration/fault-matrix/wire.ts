import diagnostics from 'node:diagnostics_channel';

/** A request as the resource's HTTP client wrote it: `seq` orders every event of the process. */
export interface WireSend {
  seq: number;
  at: number;
  path: string;
}

/** An answer the resource's HTTP client had in full (status line, headers and body). */
export interface WireAnswer extends WireSend {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
}

interface UndiciRequest {
  origin?: unknown;
  path?: unknown;
}

let seq = 0;

/**
 * What the resource's HTTP client did on the wire, seen from inside the process: the bundle's undici
 * publishes on `node:diagnostics_channel`, whose channels are shared by everything in the process.
 * `undici:client:sendHeaders` comes right before a request's bytes are written to its socket;
 * `undici:request:trailers` when an answer has arrived in full. The mock's own log says when a
 * request was read there, which on a busy machine can be long after it left: only these times say
 * whether a request left before or after the client had a 429.
 */
export class WireLog {
  readonly sent: WireSend[] = [];
  readonly answers: WireAnswer[] = [];
  private readonly pending = new WeakMap<object, { status: number; headers: Record<string, string> }>();
  private readonly stops: (() => void)[] = [];

  /** Watches requests whose origin `ours` accepts (the rows of a run share the process). */
  constructor(private readonly ours: (origin: string) => boolean) {
    this.on('undici:client:sendHeaders', (request) => {
      this.sent.push({ seq: ++seq, at: Date.now(), path: String(request.path) });
    });
    this.on('undici:request:headers', (request, message) => {
      const response = (message as { response: { statusCode: number; headers: unknown[] } }).response;
      this.pending.set(request, { status: response.statusCode, headers: headerMap(response.headers) });
    });
    this.on('undici:request:trailers', (request) => {
      const head = this.pending.get(request);
      if (head) this.answers.push({ seq: ++seq, at: Date.now(), path: String(request.path), ...head });
    });
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  private on(channel: string, record: (request: UndiciRequest & object, message: unknown) => void): void {
    const listener = (message: unknown) => {
      const request = (message as { request?: UndiciRequest } | null)?.request;
      if (request && typeof request.origin === 'string' && this.ours(request.origin))
        record(request, message);
    };
    diagnostics.subscribe(channel, listener);
    this.stops.push(() => diagnostics.unsubscribe(channel, listener));
  }
}

function headerMap(raw: unknown[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) headers[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
  return headers;
}

/**
 * Requests written after the client had a 429 in full and before the pause it sets is over
 * (`pausedUntil(answer)`, epoch ms): each with the 429 it broke.
 */
export function sentInsidePauses(
  wire: WireLog,
  pausedUntil: (answer: WireAnswer) => number,
): { sent: WireSend; after: WireAnswer }[] {
  const limited = wire.answers.filter((a) => a.status === 429);
  return wire.sent.flatMap((sent) => {
    const after = limited.find((a) => sent.seq > a.seq && sent.at < pausedUntil(a));
    return after ? [{ sent, after }] : [];
  });
}

/**
 * The limits cell's 429 part: every request the client wrote inside a pause (rows with
 * `pausedUntil`), or any 429 at all (rows without: the service should never have limited them).
 */
export function pauseCheck(
  wire: WireLog,
  pausedUntil: ((answer: WireAnswer) => number) | undefined,
): { problems: string[]; summary: string } {
  const limited = wire.answers.filter((a) => a.status === 429);
  if (limited.length === 0) return { problems: [], summary: '' };
  if (!pausedUntil)
    return {
      problems: [`${limited.length} answer(s) 429, in a row that sets no rate limit`],
      summary: `; ${limited.length}× 429`,
    };
  const early = sentInsidePauses(wire, pausedUntil);
  const problems = early
    .slice(0, 1)
    .map(
      ({ sent, after }) =>
        `${early.length} request(s) sent inside a 429's pause, e.g. ${sent.path} ${sent.at - after.at} ms after the 429 to ${after.path}`,
    );
  return { problems, summary: `; ${limited.length}× 429, ${early.length} sent inside the pause` };
}

/**
 * Requests the client wrote after it had the first answer that stops every request (`stops`: a
 * refused key) and before `untilMs`; with that answer, if there was one.
 */
function sentAfterStop(
  wire: WireLog,
  stops: (answer: WireAnswer) => boolean,
  untilMs: number,
): { stop: WireAnswer | undefined; sent: WireSend[] } {
  const stop = wire.answers.find(stops);
  if (!stop) return { stop, sent: [] };
  return { stop, sent: wire.sent.filter((s) => s.seq > stop.seq && s.at < untilMs) };
}

/**
 * The limits cell's part for a refused key: from the first refusal the client had (`refusal`) to
 * `untilMs` it may send nothing. `names` words the problems and the summary, e.g. `refusal` and
 * `stopped`.
 */
export function quietCheck(
  wire: WireLog,
  refusal: (answer: WireAnswer) => boolean,
  untilMs: number,
  names: { answer: string; state: string },
): { problems: string[]; summary: string } {
  const { stop, sent } = sentAfterStop(wire, refusal, untilMs);
  const problems: string[] = [];
  if (!stop) problems.push(`the client never had a ${names.answer}`);
  else if (sent.length > 0)
    problems.push(
      `${sent.length} request(s) sent while the key was refused, e.g. ${sent[0]!.path} ${sent[0]!.at - stop.at} ms after the ${names.answer}`,
    );
  return { problems, summary: `; ${sent.length} sent while ${names.state}` };
}
