import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../app.ts';
import { carSvg, isKnownColor, isKnownView } from './car-art.ts';

const cache = new Map<string, string>();

export function mediaRoutes(app: FastifyInstance, { db }: Deps): void {
  app.get<{ Params: { slug: string; color: string; file: string } }>('/media/vehicles/:slug/:color/:file', async (request, reply) => {
    const { slug, color, file } = request.params;
    const view = file.replace(/\.svg$/, '');
    const key = `${slug}/${color}/${view}`;
    let svg = cache.get(key);
    if (!svg) {
      const model = await db.selectFrom('vehicle_models').select(['slug', 'name', 'type']).where('slug', '=', slug).executeTakeFirst();
      if (!model || !isKnownColor(color) || !isKnownView(view) || !file.endsWith('.svg')) {
        return reply.status(404).send({ statusCode: 404, code: 'NOT_FOUND', message: `No image at ${request.url}.` });
      }
      svg = carSvg(model, color, view);
      cache.set(key, svg);
    }
    return reply.header('content-type', 'image/svg+xml').header('cache-control', 'public, max-age=604800').send(svg);
  });
}
