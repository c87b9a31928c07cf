/**
 * What the server and the browser agree on when the server draws a page's first screen and the
 * browser takes it over (decision 046).
 */

/**
 * Spec 6: the header that carries the session token on every call to the product's API. The browser
 * sends it and the API reads it; this is the one place it is named.
 */
export const SESSION_HEADER = 'stytch_auth';

/**
 * On every answer to a call with a live session: when that session now ends (an ISO instant). Use
 * renews a session (decision 072), so the browser keeps its idea of the end in step from this.
 */
export const SESSION_EXPIRES_HEADER = 'session-expires-at';

/**
 * Set by the browser while a renter is signed in (it holds no secret: the session token stays in
 * the browser's storage). A request carrying it gets the page without a first screen, since the
 * server cannot draw the renter's own view.
 */
export const SIGNED_IN_COOKIE = 'ampere_signed_in';

/**
 * The session token, set by the server at sign-in as an HttpOnly cookie (scripts cannot read it) and
 * cleared at sign-out. It is read only to draw a signed-in renter's page for that browser; the API
 * itself takes the token from SESSION_HEADER alone, so a cookie sent by another site's
 * form or link can do nothing there.
 */
export const SESSION_COOKIE = 'ampere_session';

/** The browser's last layout, `wide` or `narrow`, so the server draws the next first screen in it. */
export const LAYOUT_COOKIE = 'ampere_layout';

/** The id of the JSON script element carrying FirstScreenState beside the drawn screen. */
export const FIRST_SCREEN_STATE_ID = 'first-screen-state';

import type { ZoneReadings } from '../time.ts';

export interface FirstScreenState {
  /** The layout the screen was drawn in. */
  wide: boolean;
  /** The query cache as the server left it (TanStack Query's dehydrated state). */
  queries: unknown;
  /** The signed-in renter the screen was drawn for (never the token), or null for a signed-out screen. */
  session: { user: unknown } | null;
  /** What the drawing read of the zones it showed, so the browser's take-over needs no date formatter. */
  zones: ZoneReadings;
  /** The router's loader answers, by route id (the browser's router starts from them rather than run the loaders again). */
  router: { loaderData: Record<string, unknown> };
}
