import { withUnreadableLicense } from '../faults';
import type { ListSpec } from '../list-query';
import { listRoute, recordRoute } from '../list-route';
import { type Route, scope } from '../route';
import { memberView } from '../views';

export const MEMBER_LIST: ListSpec = {
  filters: ['id', 'status', 'gameLicense', 'discordId', 'displayName'],
  sortable: ['id', 'displayName', 'status', 'joinDate', 'createdAt', 'updatedAt'],
  searchable: ['displayName', 'gameLicense', 'discordId'],
  dates: ['joinDate', 'createdAt', 'updatedAt'],
  includes: ['departmentAssignments'],
};

export const memberRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/api/v1/members',
    access: scope('roster:read'),
    summary: 'List members (filters status, gameLicense; repeat a filter for "either value")',
    list: MEMBER_LIST,
    schema: 'Member',
    handle: listRoute(
      (ctx) => ctx.store.data.members,
      MEMBER_LIST,
      (m, ctx, query) => {
        const view = memberView(
          m,
          ctx.store,
          ctx.faults.inline || query.include.has('departmentAssignments'),
        );
        const how = ctx.faults.unreadableLicense;
        return how ? withUnreadableLicense(view as Record<string, unknown>, how) : view;
      },
    ),
  },
  {
    method: 'GET',
    pattern: '/api/v1/members/:id',
    access: scope('roster:read'),
    summary: 'One member',
    schema: 'Member',
    handle: recordRoute(
      'member',
      (ctx) => ctx.store.data.members,
      (m, ctx) => memberView(m, ctx.store, ctx.faults.inline),
    ),
  },
];
