import type { FastifyInstance } from 'fastify';
import { CarCommandParams, KeyAndCar, KeyVerbParams, SupportNoteParams } from '@ampere/domain/contract/ops-car';
import { TripIdParam } from '@ampere/domain/contract/ops-day';
import type { Deps } from '../../deps.ts';
import { opsRoute } from '../../http/ops-route.ts';
import { type CarActionDeps, closeSupportNote, readKeyAndCar, staffCarCommand, staffKeyAction } from './service.ts';

/**
 * The key and the car from a trip (issue 30 §5, decision 096): the trip's key, its car's reading
 * and support notes; the key's pause, resume, revoke and replace; lock and unlock; closing a note.
 * The car is the app's vehicle access (the simulated fleet unless Smartcar is configured).
 */
export function carActionRoutes(scope: FastifyInstance, { db, clock }: Deps): void {
  const deps: CarActionDeps = {
    db,
    clock,
    access: scope.vehicleAccess,
    messages: scope.messages,
    refresh: (userId) => scope.realtime.publish(userId, 'REFRESH'),
  };

  opsRoute(scope, {
    method: 'GET',
    url: '/trips/:tripId/key-car',
    summary: 'A trip’s key, its car’s lock, odometer, battery and position read now, and its support notes',
    action: 'trips.read',
    auditRead: true,
    params: TripIdParam,
    response: KeyAndCar,
    handler: ({ params, ops }) => readKeyAndCar(deps, params.tripId, ops),
  });

  opsRoute(scope, {
    method: 'POST',
    url: '/trips/:tripId/key/:verb',
    summary: 'Pauses, resumes, revokes or replaces the trip’s digital key (a replacement is texted to the renter)',
    action: 'keys.manage',
    params: KeyVerbParams,
    response: KeyAndCar,
    handler: ({ params, ops }) => staffKeyAction(deps, params.tripId, params.verb, ops),
  });

  opsRoute(scope, {
    method: 'POST',
    url: '/trips/:tripId/car/:command',
    summary:
      'Locks or unlocks the trip’s car; a car that does not answer is a 503, and a failed unlock opens a support note',
    action: 'cars.command',
    params: CarCommandParams,
    response: KeyAndCar,
    handler: ({ params, ops }) => staffCarCommand(deps, params.tripId, params.command, ops),
  });

  opsRoute(scope, {
    method: 'POST',
    url: '/trips/:tripId/notes/:noteId/resolve',
    summary: 'Closes a support note of the trip',
    action: 'support.resolve',
    params: SupportNoteParams,
    response: KeyAndCar,
    handler: ({ params, ops }) => closeSupportNote(deps, params.tripId, params.noteId, ops),
  });
}
