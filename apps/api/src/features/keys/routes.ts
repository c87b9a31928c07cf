import type { FastifyInstance } from 'fastify';
import { CarCommandBody, CarStateResult, KeyPageResult, KeyTokenParams } from '@ampere/domain/contract/verification';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { type KeyDeps, carCommand, keyPage } from './service.ts';

/** The key page's calls: public, the token is the capability. The car is the app's `vehicleAccess`. */
export function keyRoutes(app: FastifyInstance, { db, clock }: Deps): void {
  const deps: KeyDeps = { db, clock, access: app.vehicleAccess, log: app.log };
  route(app, {
    method: 'GET',
    url: '/api/v1/keys/:token',
    tag: 'keys',
    summary: 'The key page: the key, its trip and the car it opens (the token is the capability)',
    params: KeyTokenParams,
    response: KeyPageResult,
    handler: ({ params }) => keyPage(deps, params.token),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/keys/:token/commands',
    tag: 'keys',
    limit: 'key-commands',
    summary: 'Locks or unlocks the car with the key; a key that cannot open it now is a 409 saying why',
    params: KeyTokenParams,
    body: CarCommandBody,
    response: CarStateResult,
    handler: ({ params, body }) => carCommand(deps, params.token, body.command),
  });
}
