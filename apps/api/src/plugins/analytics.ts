import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import {
  type AnalyticsSink,
  createAnalyticsSink,
  logConversions,
  webhookConversions,
} from '../features/analytics/sink.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Where analytics events go (decision 033): the browser's batches and the server's own events
     * (a sign-in, a license approved, a policy connected, a trip paid and verified, a trip ended).
     */
    analytics: AnalyticsSink;
  }
}

export const analyticsPlugin = fp<Deps>(
  async (app, deps) => {
    const url = deps.config.analyticsConversionsUrl;
    const log = app.log.child({ feature: 'analytics' });
    app.decorate('analytics', createAnalyticsSink(deps.db, url ? webhookConversions(url, log) : logConversions(log)));
  },
  { name: 'analytics' },
);
