import Pusher from 'pusher-js';
import { OPS_API } from '@ampere/domain/contract/ops';
import { OPS_REALTIME_AUTH } from '@ampere/domain/contract/ops-day';
import type { RealtimeClientConfig } from '@ampere/domain/realtime';
import { api } from '../api.ts';

/** Where the board's connection stands, as the page says it. */
export type BoardLink = 'connecting' | 'live' | 'reconnecting' | 'refused';

/**
 * Opens the realtime connection (the API's built-in endpoint on the page's own host and port, or
 * Soketi) and subscribes to one location's board channel, signed by the console's own auth route
 * with the staff cookie. Loaded on demand by the Today page only.
 */
export function openBoardChannel(
  config: RealtimeClientConfig,
  channelName: string,
  on: { refresh(): void; link(state: BoardLink): void },
): { close(): void } {
  const tls = config.forceTLS ?? window.location.protocol === 'https:';
  const builtin = config.provider === 'builtin';
  const host = config.wsHost ?? (builtin ? window.location.hostname : null);
  const port = config.wsPort ?? (builtin ? Number(window.location.port) || (tls ? 443 : 80) : null);
  const pusher = new Pusher(config.key, {
    cluster: config.cluster,
    ...(host ? { wsHost: host } : {}),
    ...(port ? { wsPort: port, wssPort: port } : {}),
    forceTLS: tls,
    enabledTransports: ['ws', 'wss'],
    channelAuthorization: {
      endpoint: `${OPS_API}${OPS_REALTIME_AUTH}`,
      transport: 'ajax',
      // Through the console's client: the staff cookie, and an ended session goes to sign-in.
      customHandler: ({ socketId, channelName: channel }, callback) => {
        api<{ auth: string }>(OPS_REALTIME_AUTH, {
          method: 'POST',
          body: { socket_id: socketId, channel_name: channel },
        }).then(
          (result) => callback(null, result),
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
        );
      },
    },
  });
  let refused = false;
  let everLive = false;
  pusher.connection.bind('state_change', ({ current }: { current: string }) => {
    // Connected is not yet live: the channel's subscription (signed by the console) says so.
    if (!refused && current !== 'connected') on.link(everLive ? 'reconnecting' : 'connecting');
  });
  const channel = pusher.subscribe(channelName);
  channel.bind('pusher:subscription_succeeded', () => {
    // Back after a drop: what changed while the connection was away is read again at once.
    if (everLive) on.refresh();
    everLive = true;
    on.link('live');
  });
  channel.bind('pusher:subscription_error', () => {
    refused = true;
    on.link('refused');
  });
  channel.bind('REFRESH', () => on.refresh());
  return { close: () => pusher.disconnect() };
}
