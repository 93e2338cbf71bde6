import { LearningApiError, validationError } from '../api-error';
import type { LearningStore } from '../learning-store';
import { listOf, pagedList, ref } from '../openapi-schemas';
import { PAGING_PARAMETERS, paginate } from '../paging';
import { API, needs, type Route } from '../route';

const DAY_MS = 86_400_000;
const DISCORD_ID = /^\d{5,20}$/;
const discordParam = {
  name: 'discord_id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^\\d+$' },
};
const notLinked = { '404': ['not_linked', ref('Error')] as [string, object] };

/** The user a discord id is linked to, or 404 not_linked. */
export function linkedUserOf(store: LearningStore, discordId: string): string {
  const sub = store.linkedUser(discordId);
  if (sub === undefined) throw new LearningApiError('not_linked', `Discord user ${discordId} is not linked`);
  return sub;
}

const titleOf = (store: LearningStore, courseId: string) => store.course(courseId)?.title ?? '';

/** The chat-platform bot's endpoints (read scope + discord flag). */
export const discordRoutes: Route[] = [
  {
    method: 'POST',
    pattern: `${API}/discord/link-requests`,
    access: needs('read', 'discord'),
    summary: 'Starts linking a discord user: a short code and a confirm URL, or already_linked',
    doc: {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['discord_id', 'discord_username'],
              properties: {
                discord_id: { type: 'string', pattern: '^\\d{5,20}$' },
                discord_username: { type: 'string' },
              },
            },
          },
        },
      },
      responses: {
        '201': ['Pending link (code valid 10 minutes)', ref('LinkRequestReply')],
        '200': ['Already linked', ref('LinkRequestReply')],
        '422': ['validation_error', ref('Error')],
      },
    },
    handle: async ({ store, readJson, baseUrl, linkReplyNames: names }) => {
      const body = await readJson();
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw validationError('body', 'must be a JSON object');
      }
      const { discord_id, discord_username } = body as Record<string, unknown>;
      if (typeof discord_id !== 'string' || !DISCORD_ID.test(discord_id)) {
        throw validationError('discord_id', 'must be a numeric string');
      }
      if (typeof discord_username !== 'string' || discord_username.trim() === '') {
        throw validationError('discord_username', 'must be a non-empty string');
      }
      const sub = store.linkedUser(discord_id);
      if (sub !== undefined) return { body: { already_linked: true, user_sub: sub } };
      const request = store.requestLink(discord_id, discord_username);
      return {
        status: 201,
        body: {
          already_linked: false,
          [names.code]: request.code,
          [names.confirmUrl]: `${baseUrl}/link/discord?code=${request.code}`,
          [names.expiresAt]: new Date(request.expiresAt).toISOString(),
        },
      };
    },
  },
  {
    method: 'GET',
    pattern: `${API}/discord/links/:discord_id`,
    access: needs('read', 'discord'),
    summary: 'Whether a discord user is linked, and to whom',
    doc: { parameters: [discordParam], responses: { '200': ['Link state', ref('LinkLookup')] } },
    handle: ({ store, params }) => {
      const sub = store.linkedUser(params.discord_id!);
      return { body: sub === undefined ? { linked: false } : { linked: true, user_sub: sub } };
    },
  },
  {
    method: 'DELETE',
    pattern: `${API}/discord/links/:discord_id`,
    access: needs('read', 'discord'),
    summary: 'Removes a link (204); 404 not_linked when there is none',
    doc: { parameters: [discordParam], responses: { '204': ['Removed', null], ...notLinked } },
    handle: ({ store, params }) => {
      if (!store.unlink(params.discord_id!)) linkedUserOf(store, params.discord_id!);
      return { status: 204 };
    },
  },
  {
    method: 'GET',
    pattern: `${API}/discord/enrollments/:discord_id`,
    access: needs('read', 'discord'),
    summary: "A linked user's enrollments (title and status)",
    doc: {
      parameters: [discordParam],
      responses: { '200': ['Enrollments', ref('DiscordEnrollments')], ...notLinked },
    },
    handle: ({ store, params }) => {
      const discord_id = params.discord_id!;
      const user_sub = linkedUserOf(store, discord_id);
      const enrollments = store.enrollments
        .filter((e) => e.user_sub === user_sub && store.course(e.course_id)?.published)
        .map((e) => ({
          course_id: e.course_id,
          title: titleOf(store, e.course_id),
          status: e.status,
          enrolled_at: e.enrolled_at,
          completed_at: e.completed_at,
        }));
      return { body: { discord_id, user_sub, enrollments } };
    },
  },
  {
    method: 'GET',
    pattern: `${API}/discord/completions`,
    access: needs('read', 'discord'),
    summary: 'Completions of linked users only, each with discord_id; follow next_page while has_more',
    doc: {
      parameters: PAGING_PARAMETERS,
      responses: { '200': ['A page of completions', pagedList('completions', 'DiscordCompletion')] },
    },
    handle: ({ store, url, pageSize }) => {
      const linked = store.completions.flatMap((c) => {
        const discord_id = store.discordIdOf(c.user_sub);
        return discord_id === undefined ? [] : [{ discord_id, ...c, title: titleOf(store, c.course_id) }];
      });
      const { items, ...meta } = paginate(url, linked, pageSize);
      return {
        body: {
          completions: items.map(({ discord_id, user_sub, course_id, title, completed_at }) => ({
            discord_id,
            user_sub,
            course_id,
            title,
            completed_at,
          })),
          ...meta,
        },
      };
    },
  },
  {
    method: 'GET',
    pattern: `${API}/discord/expiring-certificates`,
    access: needs('read', 'discord'),
    summary: 'Active certificates of linked users expiring within `days` (default 30)',
    doc: {
      parameters: [
        { name: 'days', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 365, default: 30 } },
      ],
      responses: {
        '200': [
          'Certificates, soonest first',
          listOf('certificates', 'Certificate', { days: { type: 'integer' } }),
        ],
      },
    },
    handle: ({ store, url, now }) => {
      const raw = url.searchParams.get('days');
      const days = raw === null ? 30 : Number(raw);
      if (raw !== null && (!/^\d+$/.test(raw) || days < 1 || days > 365)) {
        throw validationError('days', 'must be an integer 1–365');
      }
      const from = now();
      const until = from + days * DAY_MS;
      const certificates = store.certificates
        .filter((c) => {
          const expires = Date.parse(c.expires_at);
          return !c.revoked && expires > from && expires <= until;
        })
        .flatMap((c) => {
          const discord_id = store.discordIdOf(c.user_sub);
          if (discord_id === undefined) return [];
          const { id, user_sub, course_id, issued_at, expires_at } = c;
          return [
            { id, discord_id, user_sub, course_id, title: titleOf(store, course_id), issued_at, expires_at },
          ];
        })
        .sort((a, b) => a.expires_at.localeCompare(b.expires_at));
      return { body: { days, certificates } };
    },
  },
];
