import { useEffect, useRef } from 'react';
import type { RealtimeEvent } from '@ampere/domain/realtime';
import { type RealtimeHandler, onRealtimeEvent } from './realtime-events.ts';

/**
 * Calls `handler` with the event's data each time `event` arrives on the signed-in renter's
 * channel, while the component is mounted (e.g. the insurance events on the verification page).
 */
export function useRealtimeEvent(event: RealtimeEvent, handler: RealtimeHandler): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => onRealtimeEvent(event, (data) => latest.current(data)), [event]);
}
