import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import { type AnalyticsSink, createAnalyticsSink } from '../features/analytics/sink.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the server's own analytics events go (decision 033): license approved, policy connected, trip paid and verified. */
    analytics: AnalyticsSink;
  }
}

export const analyticsPlugin = fp<Deps>(
  async (app, deps) => {
    app.decorate('analytics', createAnalyticsSink(deps.db));
  },
  { name: 'analytics' },
);
