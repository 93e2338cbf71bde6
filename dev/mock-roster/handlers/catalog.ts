import { ApiError } from '../api-error';
import type { ListSpec } from '../list-query';
import { listRoute, recordRoute } from '../list-route';
import { type Route, scope } from '../route';

export const DEPARTMENT_LIST: ListSpec = {
  filters: ['id', 'name', 'shortName'],
  sortable: ['id', 'name', 'shortName', 'createdAt'],
  searchable: ['name', 'shortName'],
  dates: ['createdAt'],
  includes: [],
};

export const RANK_LIST: ListSpec = {
  filters: ['id', 'departmentId', 'name', 'position'],
  sortable: ['id', 'departmentId', 'name', 'position', 'createdAt'],
  searchable: ['name'],
  dates: ['createdAt'],
  includes: [],
};

export const catalogRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/api/v1/departments',
    access: scope('departments:read'),
    summary: 'List departments',
    list: DEPARTMENT_LIST,
    schema: 'Department',
    handle: listRoute((ctx) => ctx.store.data.departments, DEPARTMENT_LIST),
  },
  {
    method: 'GET',
    pattern: '/api/v1/departments/:id',
    access: scope('departments:read'),
    summary: 'One department',
    schema: 'Department',
    handle: recordRoute('department', (ctx) => ctx.store.data.departments),
  },
  {
    method: 'GET',
    pattern: '/api/v1/ranks',
    access: scope('departments:read'),
    summary: 'List ranks (filter departmentId; position 1 is the most senior)',
    list: RANK_LIST,
    schema: 'Rank',
    handle: listRoute((ctx) => ctx.store.data.ranks, RANK_LIST),
  },
  {
    method: 'GET',
    pattern: '/api/v1/ranks/:id',
    access: scope('departments:read'),
    summary: 'One rank',
    schema: 'Rank',
    handle: recordRoute('rank', (ctx) => ctx.store.data.ranks),
  },
  {
    method: 'DELETE',
    pattern: '/api/v1/ranks/:id',
    access: scope('departments:write'),
    summary: 'Delete a rank; conflict while any assignment holds it',
    schema: 'Rank',
    handle: (ctx) => {
      const { data } = ctx.store;
      const rank = data.ranks.find((r) => r.id === ctx.params.id);
      if (!rank) throw new ApiError('not_found', `No rank with id ${ctx.params.id}`);
      if (data.assignments.some((a) => a.rankId === rank.id)) {
        throw new ApiError('conflict', `Rank ${rank.id} is still held by members`);
      }
      data.ranks = data.ranks.filter((r) => r.id !== rank.id);
      return { data: rank };
    },
  },
];
