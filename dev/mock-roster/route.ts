import type { ApiKeyRecord } from './api-keys';
import type { MockFaults } from './faults';
import type { ListSpec, Pagination } from './list-query';
import type { RosterStore } from './roster-store';

/** Who may call a route: anyone, any valid key, or a key holding one of the scopes (write implies read). */
export type Access = { kind: 'public' } | { kind: 'key' } | { kind: 'scope'; anyOf: readonly string[] };

export interface RouteContext {
  url: URL;
  /** Path parameters, e.g. `id` of `/api/v1/members/:id`. */
  params: Record<string, string>;
  /** The verified key; null only on public routes called without one. */
  key: ApiKeyRecord | null;
  store: RosterStore;
  faults: MockFaults;
  /** The JSON body; rejects with validation_error when the Content-Type or the JSON is wrong. */
  readJson(): Promise<unknown>;
}

export interface RouteResult {
  status?: number;
  data: unknown;
  pagination?: Pagination;
  /** Sent as is instead of the envelope (the OpenAPI document). */
  raw?: boolean;
}

export interface Route {
  method: 'GET' | 'PATCH' | 'POST' | 'DELETE';
  /** Path with `:name` segments. */
  pattern: string;
  access: Access;
  summary: string;
  /** The list conventions the route takes (also describes it in openapi.json). */
  list?: ListSpec;
  /** The OpenAPI component the `data` (or each list item) follows. */
  schema?: string;
  handle(ctx: RouteContext): RouteResult | Promise<RouteResult>;
}

export const scope = (...anyOf: string[]): Access => ({ kind: 'scope', anyOf });
