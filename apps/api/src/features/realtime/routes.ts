import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REALTIME_AUTH_PATH } from '@ampere/domain/realtime';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { createListener, decodeDelivery, decodeSocketClosure, type Listener, type RealtimeLog } from './fan-out.ts';
import type { Realtime } from './service.ts';
import { CHANNEL_NAME, SOCKET_ID } from './signature.ts';
import { PusherProtocolServer } from './socket-server.ts';

const PusherAuthBody = z.object({
  socket_id: z.string().regex(SOCKET_ID, 'must be the socket id the realtime connection was given, like 1234.5678'),
  channel_name: z.string().regex(CHANNEL_NAME, 'must be a channel name like private-{your user id}'),
});
const PusherAuthResult = z.object({ auth: z.string() });

/**
 * POST /api/v1/users/pusher/auth signs the renter's subscription to their own channel; with the
 * built-in provider, this process also serves the Pusher-protocol WebSocket at /app/{key} and
 * relays what any process publishes to its own subscribers.
 */
export async function realtimeRoutes(
  app: FastifyInstance,
  { db, clock, realtime }: Deps & { realtime: Realtime },
): Promise<void> {
  await app.register(async (scope) => {
    // pusher-js posts the socket id and channel as a form, unlike every other call here: the
    // parser is scoped to this route.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    route(scope, {
      method: 'POST',
      url: REALTIME_AUTH_PATH,
      tag: 'users',
      summary:
        "Signs a subscription to the signed-in renter's realtime channel, private-{stytch_user_id} (JSON or form body, as pusher-js sends it)",
      body: PusherAuthBody,
      response: PusherAuthResult,
      auth: 'renter',
      handler: ({ body, renter }) => realtime.authorize(renter, body.socket_id, body.channel_name, clock()),
    });
  });
  if (realtime.transport.kind === 'builtin') serveBuiltinEndpoint(app, db, realtime, app.log);
}

function serveBuiltinEndpoint(app: FastifyInstance, db: Deps['db'], realtime: Realtime, log: RealtimeLog): void {
  // The LISTEN starts with the first socket: an app that never takes a connection (tests through
  // inject, benchmarks) holds no extra database session.
  let listener: Listener | undefined;
  const sockets: PusherProtocolServer = new PusherProtocolServer({
    key: realtime.transport.key,
    secret: realtime.transport.secret,
    log,
    ready: () =>
      (listener ??= createListener(
        db,
        (payload) => {
          const delivery = decodeDelivery(payload);
          const closure = delivery ? null : decodeSocketClosure(payload);
          if (delivery) sockets.deliver(delivery);
          else if (closure) sockets.closeSockets(closure.socketIds);
          else log.warn({ payload: payload.slice(0, 200) }, 'realtime: unreadable notification ignored');
        },
        log,
      )).ready(),
  });
  sockets.attach(app.server);
  // Upgraded sockets keep the HTTP server from closing: hand them back first.
  app.addHook('preClose', async () => sockets.close());
  app.addHook('onClose', async () => listener?.close());
}
