import type { FastifyInstance } from 'fastify';
import { PRODUCT_NAME } from '@ampere/domain/constants';
import { openApiDocument } from '../../http/route.ts';
import { docsPage } from './page.ts';

/** The OpenAPI document and its page; register after every documented route. */
export function docsRoutes(app: FastifyInstance): void {
  const document = () => openApiDocument({ title: `${PRODUCT_NAME} API`, version: '1' });
  app.get('/api/openapi.json', async () => document());
  app.get('/api/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(docsPage(document())));
}
