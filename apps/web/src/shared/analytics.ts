import type { AnalyticsEventName } from '@ampere/domain/account';
import { authHeaders, noteAuthFailure } from './api/client.ts';

/**
 * Analytics events named by the spec (search_performed, auth_started, …). Each is kept in memory,
 * where tests and developers can read it (window.__ampereEvents), and sent in batches to
 * POST /api/v1/events: after a short pause, when a batch fills, and when the page is hidden.
 * Failures are only logged: analytics never gets in a renter's way.
 */
export type AnalyticsEvent = { name: string; properties: Record<string, unknown>; at: string };

declare global {
  interface Window {
    __ampereEvents?: AnalyticsEvent[];
  }
}

// The names the API accepts (ANALYTICS_EVENTS in the domain package). Written out here, checked
// against the domain's list by the compiler, because importing that module at runtime would pull
// the phone-number library into every page's first download.
const ACCEPTED = {
  search_performed: 1,
  filter_applied: 1,
  vehicle_card_clicked: 1,
  booking_started: 1,
  damage_waiver_accepted: 1,
  damage_waiver_declined: 1,
  damage_waiver_selected_on_booking_card: 1,
  agreements_signed: 1,
  payment_completed: 1,
  payment_failed: 1,
  payment_button_clicked: 1,
  id_verified: 1,
  insurance_verified: 1,
  paid_and_verified: 1,
  reservation_eligibility_check_success: 1,
  reservation_eligibility_check_failed: 1,
  user_birthday_updated: 1,
  user_address_updated: 1,
  auth_started: 1,
  auth_completed: 1,
  book_now_clicked: 1,
  vehicle_details_viewed: 1,
  vehicle_photos_viewed: 1,
  location_selected: 1,
  trip_ended: 1,
} satisfies Record<AnalyticsEventName, 1>;
const KNOWN = new Set<string>(Object.keys(ACCEPTED));
const FLUSH_AFTER_MS = 2_000;
/** The API takes at most 50 events a call. */
const BATCH = 50;
const queue: AnalyticsEvent[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

/** A random id kept per browser, so the API can link a visitor's events from before and after sign-in. */
function anonymousId(): string | undefined {
  try {
    let id = localStorage.getItem('anonymous_id');
    if (!id) localStorage.setItem('anonymous_id', (id = crypto.randomUUID()));
    return id;
  } catch {
    return undefined;
  }
}

export function track(name: AnalyticsEventName, properties: Record<string, unknown> = {}): void {
  const event = { name, properties, at: new Date().toISOString() };
  (window.__ampereEvents ??= []).push(event);
  if (!KNOWN.has(name)) {
    console.warn(`analytics: '${name}' is not an event the API records; add it to ANALYTICS_EVENTS.`);
    return;
  }
  queue.push(event);
  if (queue.length >= BATCH) flush();
  else timer ??= setTimeout(flush, FLUSH_AFTER_MS);
}

/** Sends what is queued; `keepalive` lets the request outlive the page. */
export function flush(): void {
  clearTimeout(timer);
  timer = undefined;
  while (queue.length) {
    const events = queue.splice(0, BATCH).map((e) => ({ name: e.name, properties: e.properties, occurred_at: e.at }));
    fetch('/api/v1/events', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders() },
      body: JSON.stringify({ anonymous_id: anonymousId(), events }),
      keepalive: true,
    })
      .then((res) => {
        noteAuthFailure(res.status);
        if (!res.ok) console.error(`analytics: POST /api/v1/events answered ${res.status}`, events);
      })
      .catch((err: unknown) => console.error('analytics: could not send events', err));
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
}
