import { LearningApiError } from '../api-error';
import { ref } from '../openapi-schemas';
import { API, type Route } from '../route';

export const catalogRoutes: Route[] = [
  {
    method: 'GET',
    pattern: `${API}/catalog/:alias`,
    access: { kind: 'public' },
    summary: 'Public catalog of an organization by alias (current or old); no key',
    doc: {
      parameters: [{ name: 'alias', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': ['Courses marked public', ref('PublicCatalog')],
        '404': ['Unknown alias or catalog disabled', ref('Error')],
      },
    },
    handle: ({ store, params }) => {
      const requested = params.alias!.toLowerCase();
      const org = store.org;
      const known = org.alias === requested || org.previousAliases.includes(requested);
      if (!known || !org.publicCatalog)
        throw new LearningApiError('not_found', `No public catalog for ${requested}`);
      const courses = store.courses
        .filter((c) => c.published && c.public && c.listed)
        .map(({ id, title, description }) => ({ id, title, description }));
      return { body: { org: org.alias, requested_org: requested, courses } };
    },
  },
];
