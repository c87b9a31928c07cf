import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which set of security headers the route sends; unset: the app's ('app'). */
    securityHeaders?: SecurityHeaderSet;
  }
}

/** The app's headers, or those of a page our own web app frames (the built-in twins' hosted pages). */
export type SecurityHeaderSet = 'app' | 'framed-by-self';

/**
 * The browser-facing security headers on every response (decision 035): a Content-Security-Policy
 * that allows our own origin plus only the outside services this deployment is configured with,
 * HSTS, nosniff, a Referrer-Policy and a Permissions-Policy.
 */

type Directives = Record<string, string[]>;

// Stripe's published CSP needs: Stripe.js and its frames, its API, and its images (card brands, 3-D Secure).
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
  img: ['https://*.stripe.com'],
};
// The hosted license check and insurance connection, framed in the web app's modal when configured.
const VERIFF_FRAMES = ['https://*.veriff.com', 'https://*.veriff.me'];
const AXLE_FRAMES = ['https://*.axle.insure'];

/** The app's policy: what the web app, the map, Stripe and the realtime channel need, nothing more. */
export function appDirectives(config: Config): Directives {
  const d: Directives = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    // Mantine and React set style attributes; a nonce cannot cover those.
    'style-src': ["'self'", "'unsafe-inline'"],
    // The map draws data: and blob: images; car pictures are our own /media.
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    // 'self' covers the built-in realtime WebSocket on this origin.
    'connect-src': ["'self'"],
    // MapLibre starts its workers from blob: URLs.
    'worker-src': ["'self'", 'blob:'],
    'child-src': ["'self'", 'blob:'],
    'frame-src': ["'self'"],
    'media-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  const add = (name: string, ...sources: string[]) => d[name]!.push(...sources);
  if (config.stripe) {
    add('script-src', ...STRIPE.script);
    add('frame-src', ...STRIPE.frame);
    add('connect-src', ...STRIPE.connect);
    add('img-src', ...STRIPE.img);
  }
  if (config.mapStyleUrl) {
    // The style names its tiles, glyphs and sprites; they are usually on the style's own origin.
    const origin = new URL(config.mapStyleUrl).origin;
    add('connect-src', origin);
    add('img-src', origin);
  }
  if (config.pusher) add('connect-src', ...pusherOrigins(config.pusher));
  if (config.veriff) add('frame-src', ...VERIFF_FRAMES);
  if (config.axle) add('frame-src', ...AXLE_FRAMES);
  return d;
}

/** Where pusher-js connects: the configured host (Soketi), else Pusher's cluster hosts. */
function pusherOrigins(p: NonNullable<Config['pusher']>): string[] {
  if (p.host) {
    const port = p.port ? `:${p.port}` : '';
    return p.useTLS
      ? [`wss://${p.host}${port}`, `https://${p.host}${port}`]
      : [`ws://${p.host}${port}`, `http://${p.host}${port}`];
  }
  return [`wss://ws-${p.cluster}.pusher.com`, `https://sockjs-${p.cluster}.pusher.com`, 'https://stats.pusher.com'];
}

/**
 * The built-in twins' hosted pages: framed by the web app on our own origin (and nothing else), their
 * one script a file on this origin, their form posting back to itself.
 */
const TWIN_DIRECTIVES: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
};

/** Route config for a page our own web app frames: `scope.get(url, { config: FRAMED_BY_SELF }, handler)`. */
export const FRAMED_BY_SELF = { securityHeaders: 'framed-by-self' } as const;

/**
 * The headers helmet's middleware sets for these options, worked out once: they do not depend on
 * the request (no nonces), so a response only copies them (decision 064: building helmet's
 * middleware per request, as @fastify/helmet does, cost about 40 µs of every API request).
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error('helmet refused the options');
    done = true;
  });
  if (!done) throw new Error('The security headers could not be worked out.');
  return headers;
}

/** Sets the headers on every response; call before any route is added. */
export function installSecurityHeaders(app: FastifyInstance, config: Config): void {
  const headersFor = (directives: Directives, frame: 'deny' | 'sameorigin') => ({
    ...helmetHeaders({
      contentSecurityPolicy: { useDefaults: false, directives },
      // Two years, as the preload list asks; the app is only ever served over HTTPS in production.
      strictTransportSecurity: { maxAge: 63_072_000, includeSubDomains: true },
      frameguard: { action: frame },
      // Full paths never leave the site (receipt and trip links carry ids); other sites see only our origin.
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // Card providers may open a window (a bank's check) that must still be able to answer.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    }),
    'permissions-policy': permissionsPolicy(config),
  });
  const sets: Record<SecurityHeaderSet, Record<string, string>> = {
    app: headersFor(appDirectives(config), 'deny'),
    'framed-by-self': headersFor(TWIN_DIRECTIVES, 'sameorigin'),
  };
  // A plain callback hook: no promise per request. Unknown URLs (the 404 handler) get the app's set.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(sets[request.routeOptions.config?.securityHeaders ?? 'app']);
    done();
  });
}

/** What the page may use: the location for "near me", the camera for the license check, payments for Stripe. */
export function permissionsPolicy(config: Config): string {
  const camera = ['self', ...(config.veriff ? VERIFF_FRAMES.map((o) => `"${o}"`) : [])];
  const payment = ['self', ...(config.stripe ? ['"https://js.stripe.com"'] : [])];
  return [
    `camera=(${camera.join(' ')})`,
    'geolocation=(self)',
    `payment=(${payment.join(' ')})`,
    'clipboard-write=(self)',
    'microphone=()',
    'usb=()',
    'browsing-topics=()',
  ].join(', ');
}
