import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import type { Database } from './db/schema.ts';
import { addonRoutes } from './features/addons/routes.ts';
import { locationRoutes } from './features/locations/routes.ts';
import { mediaRoutes } from './features/media/routes.ts';
import { searchRoutes } from './features/search/routes.ts';
import { systemRoutes, webRoutes } from './features/system/routes.ts';
import { vehicleRoutes } from './features/vehicles/routes.ts';
import { installErrorHandler } from './http/errors.ts';

export type Clock = () => Date;

export interface Deps {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
}

export async function buildApp(deps: Deps, opts: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: deps.config.logLevel } : false,
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 256 * 1024,
  });
  installErrorHandler(app);
  await app.register(compress, { threshold: 1024 });
  systemRoutes(app, deps);
  searchRoutes(app, deps);
  locationRoutes(app, deps);
  vehicleRoutes(app, deps);
  addonRoutes(app, deps);
  mediaRoutes(app, deps);
  await webRoutes(app, deps);
  return app;
}
