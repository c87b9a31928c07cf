import type { FastifyInstance } from 'fastify';
import { ReservationIdParams, ReservationResult } from '@ampere/domain/contract/booking';
import {
  CarCommandBody,
  CarStateResult,
  KeyActionBody,
  KeyPageResult,
  KeyTokenParams,
} from '@ampere/domain/contract/verification';
import { route } from '../../http/route.ts';
import { type KeyDeps, carCommand, keyAction, keyPage } from './service.ts';

/** The renter's key actions, and the key page's calls (public: the token is the capability). */
export function keyRoutes(app: FastifyInstance, deps: KeyDeps): void {
  route(app, {
    method: 'POST',
    url: '/api/v1/reservations/:id/key',
    tag: 'keys',
    summary:
      "Pauses, resumes, replaces or revokes the trip's digital key (PAUSE_KEY, UNPAUSE_KEY, CREATE_NEW_KEY, REVOKE_KEY)",
    params: ReservationIdParams,
    body: KeyActionBody,
    response: ReservationResult,
    auth: 'renter',
    handler: ({ params, body, renter }) => keyAction(deps, renter.id, params.id, body.action),
  });
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
