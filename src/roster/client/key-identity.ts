import type { KeyIdentity } from '../model';

type Bag = Record<string, unknown>;

/**
 * Reads `GET /api/v1/whoami` data, tolerating the shapes services use: `community.name` or
 * `communityName`, `scopes` or `key.scopes` (an array, or a space/comma separated string).
 */
export function readKeyIdentity(data: unknown): KeyIdentity {
  const root = bag(data);
  const community = bag(root.community);
  const key = bag(root.key ?? root.apiKey ?? root.api_key);
  const name =
    text(community.name) ?? text(root.communityName) ?? text(root.community_name) ?? text(root.community);
  const id = text(community.id) ?? text(root.communityId) ?? text(root.community_id) ?? null;
  return {
    community: { id, name: name ?? '(unnamed community)' },
    scopes: scopes(root.scopes) ?? scopes(key.scopes) ?? [],
  };
}

function bag(value: unknown): Bag {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Bag) : {};
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

function scopes(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.filter((scope): scope is string => typeof scope === 'string');
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return undefined;
}
