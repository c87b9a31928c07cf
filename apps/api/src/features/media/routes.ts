import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { carPhoto } from './service.ts';

export function mediaRoutes(app: FastifyInstance, { db }: Deps): void {
  app.get<{ Params: { slug: string; color: string; file: string } }>(
    '/media/vehicles/:slug/:color/:file',
    async (request, reply) => {
      const { slug, color, file } = request.params;
      const svg = await carPhoto(db, slug, color, file);
      if (!svg)
        return reply.status(404).send({ statusCode: 404, code: 'NOT_FOUND', message: `No image at ${request.url}.` });
      return reply.header('content-type', 'image/svg+xml').header('cache-control', 'public, max-age=604800').send(svg);
    },
  );
}
