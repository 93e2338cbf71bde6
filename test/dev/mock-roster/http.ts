import type { MockRoster } from '../../../dev/mock-roster/server';
import { type CallOptions, type Reply, request } from '../mock-http/http';

export { type CallOptions, fakeClock, type Reply } from '../mock-http/http';

/** One real HTTP request to the mock with the `full` key unless `key` says otherwise; `json` is null when the body is not JSON. */
export function call(mock: MockRoster, path: string, options: CallOptions = {}): Promise<Reply> {
  return request(`${mock.url}${path}`, {
    ...options,
    key: options.key === undefined ? mock.keys.full : options.key,
  });
}
