import type { FastifyInstance } from 'fastify';
import { CarIdParam, CarPhoto, CarPhotos, PhotoParams, PhotoRemoved } from '@ampere/domain/contract/ops-day';
import { PHOTO_MAX_BYTES } from '@ampere/domain/photos';
import { z } from 'zod';
import type { Deps } from '../../deps.ts';
import { invalid } from '../../http/errors.ts';
import { opsRoute } from '../../http/ops-route.ts';
import { listPhotos, photoFile, removePhoto, uploadPhoto } from './service.ts';
import { type PhotoStorage, photoStorageFor } from './storage.ts';

/** The storage each app's photos go to, made once per app from its configuration. */
const storages = new WeakMap<Deps['config'], PhotoStorage>();
export function photoStorageOf(config: Deps['config']): PhotoStorage {
  let storage = storages.get(config);
  if (!storage) storages.set(config, (storage = photoStorageFor(config)));
  return storage;
}

/**
 * The console's photo calls (decision 085). An upload's body is the image itself (its own
 * content type: image/jpeg, image/png, image/webp or image/avif), as a browser sends a File with
 * fetch; the limit is checked by the service with a clear message, and Fastify stops anything
 * twice as large before it is read.
 */
export function photoRoutes(scope: FastifyInstance, { db, config }: Deps): void {
  const storage = photoStorageOf(config);
  const deps = { db, storage, searchIndex: scope.searchIndex };
  scope.addContentTypeParser(
    /^(image\/|application\/octet-stream)/,
    { parseAs: 'buffer', bodyLimit: PHOTO_MAX_BYTES * 2 },
    (_request, body, done) => done(null, body),
  );

  opsRoute(scope, {
    method: 'GET',
    url: '/cars/:carId/photos',
    summary: 'List a car’s own photos',
    action: 'fleet.read',
    params: z.object({ carId: CarIdParam }).strict(),
    response: CarPhotos,
    handler: ({ params, ops }) => listPhotos(db, params.carId, ops),
  });

  opsRoute(scope, {
    method: 'POST',
    url: '/cars/:carId/photos/:view',
    summary: 'Upload a car’s photo of one view',
    action: 'photos.upload',
    params: PhotoParams,
    response: CarPhoto,
    status: 201,
    bodyLimit: PHOTO_MAX_BYTES * 2,
    handler: ({ params, ops }, request) => {
      if (!Buffer.isBuffer(request.body))
        throw invalid('Send the photo itself as the body, with its image type (e.g. image/jpeg).', 'body');
      return uploadPhoto(deps, { carId: params.carId, view: params.view, bytes: request.body, ops });
    },
  });

  opsRoute(scope, {
    method: 'DELETE',
    url: '/cars/:carId/photos/:view',
    summary: 'Remove a car’s photo of one view (its drawing shows again)',
    action: 'photos.delete',
    params: PhotoParams,
    response: PhotoRemoved,
    handler: ({ params, ops }) => removePhoto(deps, { carId: params.carId, view: params.view, ops }),
  });
}

/**
 * Serves car photos' files. Their addresses carry the photo's version, so a file never changes:
 * kept a year by any cache, and a replaced photo has a new address.
 */
export function carPhotoFileRoutes(app: FastifyInstance, { config }: Deps): void {
  const storage = photoStorageOf(config);
  app.get<{ Params: { vin: string; file: string } }>('/media/cars/:vin/:file', async (request, reply) => {
    const bytes = await photoFile(storage, request.params.vin, request.params.file);
    if (!bytes)
      return reply.status(404).send({ statusCode: 404, code: 'NOT_FOUND', message: `No image at ${request.url}.` });
    return reply
      .header('content-type', 'image/webp')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(bytes);
  });
}
