import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ClientConfig } from '@ampere/domain/contract/system';
import { staffBoardChannel } from '@ampere/domain/day';
import { ApiError } from '../api.ts';
import type { BoardLink } from './board-connection.ts';

/** How the board keeps itself fresh: told by the channel, or read again on a timer (Pusher, decision 086). */
export type BoardFreshness = BoardLink | 'timer';

const configQuery = {
  queryKey: ['client-config'],
  queryFn: async () => {
    const res = await fetch('/api/v1/config');
    if (!res.ok) throw new ApiError(res.status, 'The settings could not be loaded.', null, null);
    return (await res.json()) as ClientConfig;
  },
  staleTime: Infinity,
};

/**
 * Subscribes to a location's board channel while the page shows it, calling `refresh` each time
 * the server says the location's day changed; returns how the connection stands. With Pusher
 * configured the database's notices never reach it, so the caller reads on a timer instead.
 */
export function useBoardChannel(locationId: string | null, refresh: () => void): BoardFreshness {
  const config = useQuery(configQuery).data?.realtime ?? null;
  const [link, setLink] = useState<BoardLink>('connecting');
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });
  const builtin = config?.provider === 'builtin';
  const target = locationId && config && builtin ? JSON.stringify({ locationId, config }) : null;

  useEffect(() => {
    if (!target) return;
    const { locationId: id, config: settings } = JSON.parse(target) as {
      locationId: string;
      config: NonNullable<typeof config>;
    };
    let closed = false;
    let channel: { close(): void } | undefined;
    setLink('connecting');
    import('./board-connection.ts')
      .then(({ openBoardChannel }) => {
        if (closed) return;
        channel = openBoardChannel(settings, staffBoardChannel(id), {
          refresh: () => latest.current(),
          link: (state) => {
            if (!closed) setLink(state);
          },
        });
      })
      .catch((err: unknown) => {
        console.error('Live updates of the board could not start', err);
        if (!closed) setLink('reconnecting');
      });
    return () => {
      closed = true;
      channel?.close();
    };
  }, [target]);

  if (config && !builtin) return 'timer';
  return link;
}
