import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import { SearchIndex } from '../features/vehicles/search-index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The in-memory fleet and reservations vehicle search reads; one per process. */
    searchIndex: SearchIndex;
  }
}

/** Vehicle search's index, or the one a test brings (Deps.searchIndex). */
export const searchIndexPlugin = fp<Deps>(
  async (app, deps) => {
    app.decorate(
      'searchIndex',
      deps.searchIndex ??
        new SearchIndex(deps.db, deps.clock, {
          maxStalenessMs: deps.config.searchMaxStalenessMs,
          fleetReloadMs: 600_000,
        }),
    );
  },
  { name: 'search-index' },
);
