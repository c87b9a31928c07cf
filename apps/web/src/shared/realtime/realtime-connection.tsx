import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type RealtimeClientConfig, type RealtimeEvent, userChannel } from '@ampere/domain/realtime';
import { configQueryOptions } from '../api/config.ts';
import { useSession } from '../auth/use-session.ts';
import { emitRealtimeEvent } from './realtime-events.ts';

/**
 * Spec 2: the realtime channel connects once for a signed-in renter, and closes at sign-out.
 * Mounted once, beside the router. Renders nothing.
 */
export function RealtimeConnection() {
  const stytchUserId = useSession()?.user?.stytch_user_id ?? null;
  const realtime = useQuery(configQueryOptions()).data?.realtime ?? null;
  const queryClient = useQueryClient();
  // One string for what the connection depends on, so a re-read of the same session or config
  // (a profile update rewrites the stored user) does not reconnect.
  const target =
    stytchUserId && realtime ? JSON.stringify({ channel: userChannel(stytchUserId), config: realtime }) : null;
  useEffect(() => {
    if (!target) return;
    const { channel, config } = JSON.parse(target) as { channel: string; config: RealtimeClientConfig };
    return connect(config, channel, (event, data) => handleEvent(queryClient, event, data));
  }, [target, queryClient]);
  return null;
}

/** Spec 4: what every page does with an event, before the pages listening for it get it. */
function handleEvent(queryClient: QueryClient, event: RealtimeEvent, data: unknown): void {
  if (event === 'REFRESH') {
    window.location.reload();
    return;
  }
  if (event === 'payment-intent-succeeded') void queryClient.invalidateQueries({ queryKey: ['reservations'] });
  else if (event === 'payment-intent-failed' || event === 'payment-intent-canceled')
    console.log(`Realtime: ${event}`, data);
  emitRealtimeEvent(event, data);
}

/** Loads pusher-js only now (it is not in any page's first download); the returned function disconnects. */
function connect(
  config: RealtimeClientConfig,
  channel: string,
  onEvent: (event: RealtimeEvent, data: unknown) => void,
): () => void {
  let closed = false;
  let connection: { disconnect(): void } | undefined;
  let idle: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Once the page has settled (within two seconds at most): the page opened with fresh data, and
  // starting the connection's code while the page is still being drawn would hold up the renter.
  // Evaluating pusher-js and opening the socket are two idle tasks, not one long one (decision 066).
  const whenIdle = (run: () => void) => {
    if ('requestIdleCallback' in window) idle = requestIdleCallback(run, { timeout: 2000 });
    else timer = setTimeout(run, 0);
  };
  whenIdle(() => {
    import('./pusher-connection.ts')
      .then(({ openPusher }) =>
        whenIdle(() => {
          if (!closed) connection = openPusher(config, channel, onEvent);
        }),
      )
      .catch((err: unknown) => console.error('Realtime updates could not start', err));
  });
  return () => {
    closed = true;
    if (idle !== null) cancelIdleCallback(idle);
    clearTimeout(timer);
    connection?.disconnect();
  };
}
