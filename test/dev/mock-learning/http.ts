import { fetch } from 'undici';
import type { MockLearning } from '../../../dev/mock-learning/server';

export const API = '/api/public/v1';

export interface CallOptions {
  /** Token to send; default the `enroll` key; null sends none. */
  key?: string | null;
  /** How the key is sent (default bearer). */
  style?: 'bearer' | 'x-api-key';
  method?: string;
  body?: unknown;
  contentType?: string | null;
  signal?: AbortSignal;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON fields
  json: any;
}

/** One real HTTP request to the mock; `path` is under `/api/public/v1` unless it starts with `/api/openapi`. */
export async function call(mock: MockLearning, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? mock.keys.enroll : options.key;
  if (key !== null) {
    if (options.style === 'x-api-key') headers['X-API-Key'] = key;
    else headers.Authorization = `Bearer ${key}`;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (options.contentType !== null) headers['Content-Type'] = options.contentType ?? 'application/json';
  }
  const full = path.startsWith('/api/openapi') ? path : `${API}${path}`;
  const response = await fetch(`${mock.url}${full}`, {
    method: options.method ?? 'GET',
    headers,
    ...(body !== undefined ? { body } : {}),
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
} {
  let time = start;
  return {
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
  };
}

export const DAY_MS = 86_400_000;
