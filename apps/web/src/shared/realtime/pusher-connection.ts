import Pusher from 'pusher-js';
import {
  REALTIME_AUTH_PATH,
  type RealtimeClientConfig,
  type RealtimeEvent,
  isRealtimeEvent,
} from '@ampere/domain/realtime';
import { api } from '../api/client.ts';

/**
 * Connects pusher-js to Pusher, Soketi or the API's built-in endpoint (same host and port as the
 * page), and subscribes to the renter's private channel. Loaded on demand: it is not part of the
 * first download of any page.
 */
export function openPusher(
  config: RealtimeClientConfig,
  channelName: string,
  onEvent: (event: RealtimeEvent, data: unknown) => void,
): { disconnect(): void } {
  const tls = config.forceTLS ?? window.location.protocol === 'https:';
  const host = config.wsHost ?? (config.provider === 'builtin' ? window.location.hostname : null);
  const port =
    config.wsPort ?? (config.provider === 'builtin' ? Number(window.location.port) || (tls ? 443 : 80) : null);
  const pusher = new Pusher(config.key, {
    cluster: config.cluster,
    ...(host ? { wsHost: host } : {}),
    ...(port ? { wsPort: port, wssPort: port } : {}),
    forceTLS: tls,
    enabledTransports: ['ws', 'wss'],
    channelAuthorization: {
      endpoint: REALTIME_AUTH_PATH,
      transport: 'ajax',
      // Through the product's API client: the session header, and a 401 signs the renter out as
      // any other call would.
      customHandler: ({ socketId, channelName: channel }, callback) => {
        api<{ auth: string }>(REALTIME_AUTH_PATH, {
          method: 'POST',
          body: { socket_id: socketId, channel_name: channel },
        }).then(
          (result) => callback(null, result),
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
        );
      },
    },
  });
  const channel = pusher.subscribe(channelName);
  channel.bind('pusher:subscription_error', (err: unknown) =>
    console.error('Realtime updates were refused for this session', err),
  );
  channel.bind_global((event: string, data: unknown) => {
    if (isRealtimeEvent(event)) onEvent(event, data);
  });
  return { disconnect: () => pusher.disconnect() };
}
