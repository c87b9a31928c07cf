import type { FastifyInstance } from 'fastify';
import { FlagsResult } from '@ampere/domain/contract/account';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import * as service from './service.ts';

export function flagRoutes(app: FastifyInstance, { db }: Deps): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/flags',
    tag: 'flags',
    summary: "Feature flags: the defaults, with the signed-in renter's overrides",
    response: FlagsResult,
    auth: 'optional',
    handler: ({ renter }) => service.flagsFor(db, renter?.id ?? null),
  });
}
