import type { FastifyInstance } from 'fastify';
import { AutocompleteQuery, SearchIdParams, SearchOption, SearchOptionList } from '@ampere/domain/contract/catalog';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as service from './service.ts';

export function searchRoutes(app: FastifyInstance, { db }: Deps): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/search/autocomplete',
    tag: 'search',
    summary: 'Location options matching typed text (case-insensitive)',
    query: AutocompleteQuery,
    response: SearchOptionList,
    handler: async ({ query }) => ({ options: await service.autocomplete(db, query.query, query.limit) }),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/search/cities',
    tag: 'search',
    summary: 'The city list shown before anything is typed',
    response: SearchOptionList,
    handler: async () => ({ options: await service.cityOptions(db) }),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/search/landmarks-near/:id',
    tag: 'search',
    summary: 'Landmarks and airports near a search location, nearest first',
    params: SearchIdParams,
    response: SearchOptionList,
    handler: async ({ params }) => ({ options: await service.landmarksNear(db, params.id) }),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/search/:id',
    tag: 'search',
    summary: 'One search location',
    params: SearchIdParams,
    response: SearchOption,
    handler: async ({ params }) => service.getSearchOption(db, params.id),
  });
}
