import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { carSvg, isKnownColor, isKnownView } from './car-art.ts';
import { modelBySlug } from './repository.ts';

const cache = new Map<string, string>();

export function mediaRoutes(app: FastifyInstance, { db }: Deps): void {
  app.get<{ Params: { slug: string; color: string; file: string } }>('/media/vehicles/:slug/:color/:file', async (request, reply) => {
    const { slug, color, file } = request.params;
    const view = file.replace(/\.svg$/, '');
    const key = `${slug}/${color}/${view}`;
    let svg = cache.get(key);
    if (!svg) {
      const notFound = () => reply.status(404).send({ statusCode: 404, code: 'NOT_FOUND', message: `No image at ${request.url}.` });
      // Unknown colours and views are refused before the database is asked.
      if (!file.endsWith('.svg') || !isKnownColor(color) || !isKnownView(view)) return notFound();
      const model = await modelBySlug(db, slug);
      if (!model) return notFound();
      svg = carSvg(model, color, view);
      cache.set(key, svg);
    }
    return reply.header('content-type', 'image/svg+xml').header('cache-control', 'public, max-age=604800').send(svg);
  });
}
