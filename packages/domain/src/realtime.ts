/**
 * The realtime channel (spec 4 and 7), shared by the API that publishes and the web app that
 * listens. Kept free of zod on purpose: the web app imports it in its entry chunk.
 */

/** Spec 7: the events a renter's private channel carries. */
export const REALTIME_EVENTS = [
  'REFRESH',
  'payment-intent-succeeded',
  'payment-intent-failed',
  'payment-intent-canceled',
  'insurance-completed',
  'insurance-exited',
  'insurance-failed',
  'insurance-error',
] as const;
export type RealtimeEvent = (typeof REALTIME_EVENTS)[number];

/** Spec 4: the insurance-connection outcomes, handed to whichever page is listening. */
export const INSURANCE_EVENTS = [
  'insurance-completed',
  'insurance-exited',
  'insurance-failed',
  'insurance-error',
] as const satisfies readonly RealtimeEvent[];
export type InsuranceEvent = (typeof INSURANCE_EVENTS)[number];

/**
 * What an insurance event carries: the connection, its state, and for a failure what went wrong in
 * the carrier's words (`message`). `retry` marks a sign-in the carrier refused while the connection
 * window stays open for another try (a wrong password): the window is not closed for it.
 */
export interface InsuranceEventData {
  insurance_verification_id: string;
  status: string;
  message?: string | null;
  retry?: boolean;
}

export function isRealtimeEvent(value: unknown): value is RealtimeEvent {
  return typeof value === 'string' && (REALTIME_EVENTS as readonly string[]).includes(value);
}

/** Spec 9: the realtime provider's cluster. */
export const REALTIME_CLUSTER = 'us2';

/** Spec 7: the API call that signs a subscription to the renter's channel. */
export const REALTIME_AUTH_PATH = '/api/v1/users/pusher/auth';

/** Spec 7: one private channel per renter, named after their identity-service user id. */
export function userChannel(stytchUserId: string): string {
  return `private-${stytchUserId}`;
}

/**
 * How the browser reaches the realtime service, from GET /api/v1/config. `wsHost`, `wsPort` and
 * `forceTLS` are null for the built-in endpoint: it is on the page's own host and port.
 */
export interface RealtimeClientConfig {
  provider: 'pusher' | 'builtin';
  key: string;
  cluster: string;
  wsHost: string | null;
  wsPort: number | null;
  forceTLS: boolean | null;
}
