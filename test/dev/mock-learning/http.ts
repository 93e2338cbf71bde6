import type { MockLearning } from '../../../dev/mock-learning/server';
import { type CallOptions, type Reply, request } from '../mock-http/http';

export { type CallOptions, fakeClock, type Reply } from '../mock-http/http';

export const API = '/api/public/v1';

/**
 * One real HTTP request to the mock with the `enroll` key unless `key` says otherwise; `path` is
 * under `/api/public/v1` unless it starts with `/api/openapi`.
 */
export function call(mock: MockLearning, path: string, options: CallOptions = {}): Promise<Reply> {
  const full = path.startsWith('/api/openapi') ? path : `${API}${path}`;
  return request(`${mock.url}${full}`, {
    ...options,
    key: options.key === undefined ? mock.keys.enroll : options.key,
  });
}

export const DAY_MS = 86_400_000;
