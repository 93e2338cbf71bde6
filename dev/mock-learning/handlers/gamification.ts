import { validationError } from '../api-error';
import { ref } from '../openapi-schemas';
import { API, needs, type Route } from '../route';
import { linkedUserOf } from './discord';

export const gamificationRoutes: Route[] = [
  {
    method: 'GET',
    pattern: `${API}/discord/gamification/:discord_id`,
    access: needs('read', 'discord', 'gamification'),
    summary: "A linked user's experience points, level and badges",
    doc: {
      parameters: [{ name: 'discord_id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '200': ['Progress', ref('Gamification')], '404': ['not_linked', ref('Error')] },
    },
    handle: ({ store, params }) => {
      const discord_id = params.discord_id!;
      const user_sub = linkedUserOf(store, discord_id);
      return { body: { discord_id, user_sub, ...store.gamificationOf(user_sub) } };
    },
  },
  {
    method: 'GET',
    pattern: `${API}/gamification/leaderboard`,
    access: needs('read', 'gamification'),
    summary: 'Tenant leaderboard (a bare array), highest points first',
    doc: {
      parameters: [
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
      ],
      responses: { '200': ['Leaderboard', { type: 'array', items: ref('LeaderboardEntry') }] },
    },
    handle: ({ store, url }) => {
      const raw = url.searchParams.get('limit');
      const limit = raw === null ? 10 : Number(raw);
      if (raw !== null && (!/^\d+$/.test(raw) || limit < 1 || limit > 100)) {
        throw validationError('limit', 'must be an integer 1–100');
      }
      const scored = store.users
        .map((u) => ({ name: u.name, points: store.gamificationOf(u.user_sub).xp }))
        .sort((a, b) => b.points - a.points || a.name.localeCompare(b.name));
      return { body: scored.slice(0, limit).map((entry, i) => ({ rank: i + 1, ...entry })) };
    },
  },
];
