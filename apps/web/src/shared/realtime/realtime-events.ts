import type { RealtimeEvent } from '@ampere/domain/realtime';

export type RealtimeHandler = (data: unknown) => void;

const handlers = new Map<RealtimeEvent, Set<RealtimeHandler>>();

/** Listens for one event on the renter's channel; returns the function that stops listening. */
export function onRealtimeEvent(event: RealtimeEvent, handler: RealtimeHandler): () => void {
  let set = handlers.get(event);
  if (!set) handlers.set(event, (set = new Set()));
  set.add(handler);
  return () => void set.delete(handler);
}

/** Hands an event from the channel to every page listening for it; one failing listener does not stop the others. */
export function emitRealtimeEvent(event: RealtimeEvent, data: unknown): void {
  for (const handler of [...(handlers.get(event) ?? [])]) {
    try {
      handler(data);
    } catch (err) {
      console.error(`A realtime ${event} handler failed`, err);
    }
  }
}
