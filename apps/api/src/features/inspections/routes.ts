import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ReservationIdParams } from '@ampere/domain/contract/booking';
import {
  DamageBody,
  DamageParams,
  DamageRemoved,
  InspectionCompare,
  InspectionParams,
  InspectionResult,
  InspectionTripParams,
  InspectionViewParams,
  RenterInspections,
} from '@ampere/domain/contract/ops-inspections';
import { KeyTokenParams } from '@ampere/domain/contract/verification';
import { PHOTO_MAX_BYTES } from '@ampere/domain/photos';
import type { Deps } from '../../deps.ts';
import { invalid } from '../../http/errors.ts';
import { opsRoute } from '../../http/ops-route.ts';
import { route } from '../../http/route.ts';
import { photoStorageFor } from '../photos/storage.ts';
import {
  type InspectionDeps,
  addCloseup,
  addDamage,
  addRenterPhoto,
  compareInspections,
  completeInspection,
  getInspection,
  inspectionPhotoFile,
  keyTrip,
  ownTrip,
  removeDamage,
  renterInspections,
  startInspection,
  uploadViewPhoto,
} from './service.ts';

const depsOf = (app: FastifyInstance, { db, config, clock }: Deps): InspectionDeps => ({
  db,
  storage: photoStorageFor(config),
  access: app.vehicleAccess,
  clock,
});

/** The photo sent as the body (decision 085's way): a 400 saying how when it is not. */
function photoBody(request: FastifyRequest): Buffer {
  if (!Buffer.isBuffer(request.body))
    throw invalid('Send the photo itself as the body, with its image type (e.g. image/jpeg).', 'body');
  return request.body;
}

/**
 * The console's inspection calls (decision 089), inside the console's scope, where the car photos'
 * routes already take an image as the body. Reads need `trips.read`; every write is
 * `inspections.record`, audited against the trip.
 */
export function opsInspectionRoutes(scope: FastifyInstance, deps: Deps): void {
  const d = depsOf(scope, deps);
  const base = '/trips/:tripId/inspections';

  opsRoute(scope, {
    method: 'GET',
    url: `${base}/compare`,
    summary: 'A trip’s check-out and return inspections side by side, view by view, with both sides’ damage',
    action: 'trips.read',
    params: InspectionTripParams,
    response: InspectionCompare,
    handler: ({ params, ops }) => compareInspections(d, params.tripId, ops),
  });
  opsRoute(scope, {
    method: 'GET',
    url: `${base}/:stage`,
    summary: 'A trip’s inspection at check-out or check-in (null until started)',
    action: 'trips.read',
    params: InspectionParams,
    response: InspectionResult,
    handler: ({ params, ops }) => getInspection(d, params.tripId, params.stage, ops),
  });
  opsRoute(scope, {
    method: 'POST',
    url: `${base}/:stage`,
    summary: 'Starts a trip’s inspection at check-out or check-in (again: no change)',
    action: 'inspections.record',
    params: InspectionParams,
    response: InspectionResult,
    handler: ({ params, ops }) => startInspection(d, params.tripId, params.stage, ops),
  });
  opsRoute(scope, {
    method: 'POST',
    url: `${base}/:stage/photos/:view`,
    summary: 'Uploads a guided view’s photo (the image as the body), with the car’s reading; a retake replaces it',
    action: 'inspections.record',
    params: InspectionViewParams,
    response: InspectionResult,
    status: 201,
    bodyLimit: PHOTO_MAX_BYTES * 2,
    handler: ({ params, ops }, request) => uploadViewPhoto(d, { ...params, bytes: photoBody(request), ops }),
  });
  opsRoute(scope, {
    method: 'POST',
    url: `${base}/:stage/damage`,
    summary: 'Marks damage on the car’s drawing, with its view, severity and note',
    action: 'inspections.record',
    params: InspectionParams,
    body: DamageBody,
    response: InspectionResult,
    status: 201,
    handler: ({ params, body, ops }) => addDamage(d, { ...params, body, ops }),
  });
  opsRoute(scope, {
    method: 'POST',
    url: `${base}/:stage/damage/:damageId/photos`,
    summary: 'Adds a close-up photo of a damage mark (the image as the body)',
    action: 'inspections.record',
    params: DamageParams,
    response: InspectionResult,
    status: 201,
    bodyLimit: PHOTO_MAX_BYTES * 2,
    handler: ({ params, ops }, request) => addCloseup(d, { ...params, bytes: photoBody(request), ops }),
  });
  opsRoute(scope, {
    method: 'DELETE',
    url: `${base}/:stage/damage/:damageId`,
    summary: 'Removes a damage mark made by mistake, with its close-ups',
    action: 'inspections.record',
    params: DamageParams,
    response: DamageRemoved,
    handler: ({ params, ops }) => removeDamage(d, { ...params, ops }),
  });
  opsRoute(scope, {
    method: 'POST',
    url: `${base}/:stage/complete`,
    summary: 'Completes an inspection once all eight views are photographed',
    action: 'inspections.record',
    params: InspectionParams,
    response: InspectionResult,
    handler: ({ params, ops }) => completeInspection(d, params.tripId, params.stage, ops),
  });
}

/**
 * The renter's inspection calls (decision 090): from the trip page (signed in, their own trip) and
 * from the key page (the key's token is the capability), in a scope of their own that takes an
 * image as the body. Also serves the inspection photos' files.
 */
export function inspectionRoutes(app: FastifyInstance, deps: Deps): void {
  const d = depsOf(app, deps);
  app.register(async (scope) => {
    scope.addContentTypeParser(
      /^(image\/|application\/octet-stream)/,
      { parseAs: 'buffer', bodyLimit: PHOTO_MAX_BYTES * 2 },
      (_request, body, done) => done(null, body),
    );
    route(scope, {
      method: 'GET',
      url: '/api/v1/reservations/:id/inspection',
      tag: 'inspections',
      summary: 'The trip’s inspection photos (staff’s and the renter’s) and the window to add the renter’s own',
      params: ReservationIdParams,
      response: RenterInspections,
      auth: 'renter',
      handler: async ({ params, renter }) => renterInspections(d, await ownTrip(d.db, renter.id, params.id)),
    });
    route(scope, {
      method: 'POST',
      url: '/api/v1/reservations/:id/inspection/photos',
      tag: 'inspections',
      summary: 'Adds the renter’s photo to the trip’s inspection at pickup or return (the image as the body)',
      params: ReservationIdParams,
      response: RenterInspections,
      status: 201,
      bodyLimit: PHOTO_MAX_BYTES * 2,
      auth: 'renter',
      handler: async ({ params, renter }, request) =>
        addRenterPhoto(d, await ownTrip(d.db, renter.id, params.id), renter.id, photoBody(request)),
    });
    route(scope, {
      method: 'GET',
      url: '/api/v1/keys/:token/inspection',
      tag: 'inspections',
      summary: 'The inspection photos of the trip the key opens, and the window to add the renter’s own',
      params: KeyTokenParams,
      response: RenterInspections,
      handler: async ({ params }) => renterInspections(d, await keyTrip(d.db, params.token)),
    });
    route(scope, {
      method: 'POST',
      url: '/api/v1/keys/:token/inspection/photos',
      tag: 'inspections',
      summary: 'Adds the renter’s photo, from the key page, to the inspection at pickup or return',
      params: KeyTokenParams,
      response: RenterInspections,
      status: 201,
      bodyLimit: PHOTO_MAX_BYTES * 2,
      handler: async ({ params }, request) => {
        const trip = await keyTrip(d.db, params.token);
        return addRenterPhoto(d, trip, null, photoBody(request));
      },
    });
  });

  // Addressed by random ids: only who was given the address (staff, or the trip's renter) finds it.
  app.get<{ Params: { inspectionId: string; file: string } }>(
    '/media/inspections/:inspectionId/:file',
    async (request, reply) => {
      const bytes = await inspectionPhotoFile(d.storage, request.params.inspectionId, request.params.file);
      if (!bytes)
        return reply.status(404).send({ statusCode: 404, code: 'NOT_FOUND', message: `No image at ${request.url}.` });
      return reply
        .header('content-type', 'image/webp')
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(bytes);
    },
  );
}
