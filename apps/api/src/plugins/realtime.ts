import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import { type Realtime, createRealtime } from '../features/realtime/service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The renter's realtime channel: Pusher when configured, else the built-in endpoint on this server. */
    realtime: Realtime;
  }
}

/** The realtime channel, or the one a test brings (Deps.realtime). */
export const realtimePlugin = fp<Deps>(
  async (app, deps) => {
    app.decorate('realtime', deps.realtime ?? createRealtime(deps.config, deps.db, app.log));
  },
  { name: 'realtime' },
);
