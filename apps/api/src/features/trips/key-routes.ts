import type { FastifyInstance } from 'fastify';
import { ReservationIdParams, ReservationResult } from '@ampere/domain/contract/booking';
import { KeyActionBody } from '@ampere/domain/contract/verification';
import { route } from '../../http/route.ts';

/** The renter's actions on a trip's key (the key page itself is the keys feature's). */
export function tripKeyRoutes(app: FastifyInstance): void {
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
    handler: ({ params, body, renter }) => app.trips.keyAction(renter.id, params.id, body.action),
  });
}
