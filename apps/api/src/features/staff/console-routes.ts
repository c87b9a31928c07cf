import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { OPS_BASE } from '@ampere/domain/contract/ops';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { ensureOwner } from './owner.ts';

/**
 * The operator console's own build (apps/ops, decision 082), under /ops: its hashed assets kept a
 * year, and every other path under /ops answered with its index.html, so a deep link opens the
 * console's page. The renter app's pages never load any of it.
 */
export async function opsWebRoutes(app: FastifyInstance, { config }: Pick<Deps, 'config'>): Promise<void> {
  const indexFile = path.join(config.opsDist, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built)
    await app.register(fastifyStatic, {
      root: config.opsDist,
      prefix: `${OPS_BASE}/`,
      wildcard: false,
      index: false,
      // The renter app's registration decorates the reply; this one must not do it twice.
      decorateReply: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        // Files under assets/ are named by their content's hash: a year, as the renter app's.
        const relative = path.relative(config.opsDist, filePath);
        reply.header(
          'cache-control',
          relative.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        reply.header('vary', 'accept-encoding');
      },
    });
  const html = built ? fs.readFileSync(indexFile, 'utf8') : null;
  const page = async (_request: unknown, reply: FastifyReply) => {
    if (!html)
      return reply.status(503).type('text/plain').send('The operator console is not built yet: run `npm run build`.');
    // Never kept by a shared cache, and asked for afresh: a new release's assets are named in it.
    return reply.type('text/html').header('cache-control', 'private, no-cache').send(html);
  };
  app.get(OPS_BASE, page);
  app.get(`${OPS_BASE}/*`, page);
}

/**
 * Development only (CLOCK_CONTROL=on, never in production): makes an owner, as `npm run ops:owner`
 * does, for the e2e tests, whose server's embedded database no other process can open.
 */
export function opsDevRoutes(app: FastifyInstance, { db, clock }: Pick<Deps, 'db' | 'clock'>): void {
  route(app, {
    method: 'POST',
    url: '/api/dev/ops/owner',
    tag: 'dev',
    summary: 'Development only (CLOCK_CONTROL=on): makes an owner of the operator console, as npm run ops:owner does',
    body: z.object({ phone: z.string().min(1).max(32), name: z.string().min(1).max(100) }).strict(),
    response: z.object({ id: z.string(), phone: z.string(), created: z.boolean() }),
    handler: async ({ body }) => {
      const { created, staff } = await ensureOwner(db, { phone: body.phone, name: body.name, now: clock() });
      return { id: staff.id, phone: staff.phone, created };
    },
  });
}
