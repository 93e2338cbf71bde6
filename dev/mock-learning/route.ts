import type { LearningKey } from './api-keys';
import type { LearningStore } from './learning-store';
import type { FlagName } from './records';

/** Who may call a route: anyone, any valid key, or a key with a scope on an org with the flags on. */
export type Access =
  | { kind: 'public' }
  | { kind: 'key' }
  | { kind: 'scope'; scope: 'read' | 'enroll:write'; flags: readonly FlagName[] };

export const needs = (scope: 'read' | 'enroll:write', ...flags: FlagName[]): Access => ({
  kind: 'scope',
  scope,
  flags,
});

export interface RouteContext {
  url: URL;
  /** Path parameters, e.g. `discord_id`. */
  params: Record<string, string>;
  key: LearningKey | null;
  store: LearningStore;
  /** The mock's own address (for `confirm_url`). */
  baseUrl: string;
  /** Default page size of completion lists; null = everything in one page. */
  pageSize: number | null;
  /** Names of the pending link reply's fields (in replies and in the OpenAPI document). */
  linkReplyNames: LinkReplyNames;
  now: () => number;
  /** The JSON body; rejects with validation_error when the Content-Type or the JSON is wrong. */
  readJson(): Promise<unknown>;
}

export interface RouteResult {
  status?: number;
  /** Absent for 204. */
  body?: unknown;
}

/** How the route appears in openapi.json (besides path, method and security, derived from the route). */
export interface OperationDoc {
  parameters?: object[];
  requestBody?: object;
  /** Status → [description, schema]. */
  responses: Record<string, [string, object | null]>;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path with `:name` segments. */
  pattern: string;
  access: Access;
  summary: string;
  doc: OperationDoc;
  handle(ctx: RouteContext): RouteResult | Promise<RouteResult>;
}

export const API = '/api/public/v1';

/** The pending link reply's field names: the partner document does not state them. */
export interface LinkReplyNames {
  code: string;
  confirmUrl: string;
  expiresAt: string;
}

export const DEFAULT_LINK_REPLY_NAMES: LinkReplyNames = {
  code: 'code',
  confirmUrl: 'confirm_url',
  expiresAt: 'expires_at',
};
