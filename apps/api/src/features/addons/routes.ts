import type { FastifyInstance } from 'fastify';
import { AddonList, RelatedAddonsBody } from '@ampere/domain/contract/catalog';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { relatedAddons } from './service.ts';

export function addonRoutes(app: FastifyInstance, { db }: Deps): void {
  route(app, {
    method: 'POST',
    url: '/api/v1/addons/related',
    tag: 'addons',
    summary: 'Extras available for a vehicle and period (amounts in cents; per day or one-off)',
    body: RelatedAddonsBody,
    response: AddonList,
    handler: async ({ body }) => ({ addons: await relatedAddons(db, body) }),
  });
}
