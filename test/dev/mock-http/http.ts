import { type Dispatcher, fetch } from 'undici';

export interface CallOptions {
  /** Token to send; each mock's `call` picks a default key; null sends none. */
  key?: string | null;
  /** How the key is sent (default bearer). */
  style?: 'bearer' | 'x-api-key';
  method?: string;
  body?: unknown;
  contentType?: string | null;
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON fields
  json: any;
}

/** One real HTTP request to `url`; `json` is null when the body is not JSON. */
export async function request(url: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  const key = options.key ?? null;
  if (key !== null) {
    if (options.style === 'x-api-key') headers['X-API-Key'] = key;
    else headers.Authorization = `Bearer ${key}`;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (options.contentType !== null) headers['Content-Type'] = options.contentType ?? 'application/json';
  }
  const response = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers as unknown as Headers, text, json };
}

/** A clock tests move by hand. */
export function fakeClock(start = Date.UTC(2025, 5, 1, 12, 0, 0)): {
  now: () => number;
  advance(ms: number): void;
  set(t: number): void;
} {
  let time = start;
  return {
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
    set: (t) => {
      time = t;
    },
  };
}
