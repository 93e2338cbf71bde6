import type { LinkReplyFields, ProgressFields } from './records';

/** Every partner path starts here. */
export const PUBLIC_API = '/api/public/v1';

/** The OpenAPI document, outside the partner prefix. */
export const OPENAPI_PATH = '/api/openapi.json';

/** Every route under it needs the `discord` feature flag. */
const DISCORD = '/discord';

/**
 * The partner routes the document states, under {@link PUBLIC_API}; `{discord_id}` is where a
 * Discord id goes ({@link withDiscordId}), as the OpenAPI document writes it too.
 */
export const LEARNING_ROUTES = {
  courses: '/courses',
  enrollments: '/enrollments',
  discord: DISCORD,
  completions: `${DISCORD}/completions`,
  link: `${DISCORD}/links/{discord_id}`,
  linkRequests: `${DISCORD}/link-requests`,
  expiringCertificates: `${DISCORD}/expiring-certificates`,
  progress: `${DISCORD}/gamification/{discord_id}`,
} as const;

/** `route` for one Discord user, the id encoded. */
export function withDiscordId(route: string, discordId: string): string {
  return route.replace('{discord_id}', encodeURIComponent(discordId));
}

/**
 * The parts of the learning API the document leaves unstated, as the resource uses them.
 * Paths are under `/api/public/v1`.
 */
export interface ApiLayout {
  identityPath: string;
  /** With `{alias}` where the organisation alias goes. */
  catalogPath: string;
  linkReply: LinkReplyFields;
  progress: ProgressFields;
  /** Query parameters of the completion lists, when they page. */
  paging: { page: string; limit: string | undefined };
}

export const defaultLayout: ApiLayout = {
  identityPath: '/me',
  catalogPath: '/catalog/{alias}',
  linkReply: { code: 'code', confirmUrl: 'confirm_url', expiresAt: 'expires_at' },
  progress: { experience: 'xp', level: 'level', badges: 'badges' },
  paging: { page: 'page', limit: 'limit' },
};

/** What the resource learned about one unstated part, for `roster doctor`. */
export interface LayoutNote {
  part: string;
  value: string;
  source: 'found' | 'assumed';
}

export interface DiscoveredLayout {
  layout: ApiLayout;
  notes: LayoutNote[];
  /** Why the OpenAPI document could not be used, when it could not. */
  problem: string | undefined;
}

/** With no OpenAPI document: the defaults, every one marked assumed. */
export function assumedLayout(problem: string): DiscoveredLayout {
  return { layout: defaultLayout, notes: describe(defaultLayout, () => 'assumed'), problem };
}

export function describe(layout: ApiLayout, source: (part: string) => LayoutNote['source']): LayoutNote[] {
  return [
    { part: 'key identity', value: `GET ${layout.identityPath}`, source: source('identity') },
    { part: 'public catalog', value: `GET ${layout.catalogPath}`, source: source('catalog') },
    {
      part: 'link-request reply',
      value: `${layout.linkReply.code}, ${layout.linkReply.confirmUrl}, ${layout.linkReply.expiresAt}`,
      source: source('linkReply'),
    },
    {
      part: 'experience/level/badges',
      value: `${layout.progress.experience}, ${layout.progress.level}, ${layout.progress.badges}`,
      source: source('progress'),
    },
    {
      part: 'completion paging',
      value: `?${layout.paging.page}=${layout.paging.limit ? `, ?${layout.paging.limit}=` : ''}`,
      source: source('paging'),
    },
  ];
}
