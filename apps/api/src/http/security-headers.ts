import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

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

/** Route option for a page our own web app frames: `scope.get(url, { helmet: FRAMED_BY_SELF }, handler)`. */
export const FRAMED_BY_SELF: FastifyHelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: TWIN_DIRECTIVES },
  frameguard: { action: 'sameorigin' },
};

/** Registers the headers for every route; call before any route is added. */
export async function installSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: appDirectives(config) },
    // Two years, as the preload list asks; the app is only ever served over HTTPS in production.
    strictTransportSecurity: { maxAge: 63_072_000, includeSubDomains: true },
    frameguard: { action: 'deny' },
    // Full paths never leave the site (receipt and trip links carry ids); other sites see only our origin.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Card providers may open a window (a bank's check) that must still be able to answer.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
  const permissions = permissionsPolicy(config);
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('permissions-policy', permissions);
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
