import rateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
  normalizeIP,
} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Config, RateLimitKind } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from './errors.ts';
import { hitWindow } from './rate-limit-repository.ts';
import { sessionOf, sessionOfCountingHit } from './session.ts';
import { staffSessionOf } from './ops-route.ts';
import { OPS_API } from '@ampere/domain/contract/ops';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which request limit the route is held to (decision 038); false: none. Unset: writes are held to 'writes'. */
    limit?: RateLimitKind | false;
    /** Set with the limit: what the keys of the route's windows start with (windowKeyPrefix). */
    windowKeyPrefix?: string;
  }
}

/** Every limit counts requests in windows of a minute. */
const WINDOW_MS = 60_000;

/** What a renter is told when they hit a limit, by kind. */
const WHAT: Record<RateLimitKind, string> = {
  'sign-in': 'Too many sign-in requests',
  lookups: 'Too many lookups',
  events: 'Too many analytics events',
  'key-commands': 'Too many commands to the car',
  writes: 'Too many requests',
};

export const rateLimitMessage = (kind: RateLimitKind, seconds: number) =>
  `${WHAT[kind]} in a short time. Please wait ${seconds === 1 ? '1 second' : `${seconds} seconds`} and try again.`;

/** A signed-in renter's key, after the route's prefix. */
const RENTER = 'renter:';

/**
 * What the keys of a route's windows start with: its method and url, so each route is counted on
 * its own. The store's child and the signed-in renter's count with their session (one statement)
 * both read it from the route's config.
 */
function windowKeyPrefix(method: string | string[], url: string): string {
  return `${Array.isArray(method) ? method.join(',') : method} ${url} `;
}

/**
 * The plugin hands its store only the key the key generator made. A request whose hit was counted
 * with its session lookup passes its window's figures to the store this way, so it is not counted
 * twice.
 */
const COUNTED = 'counted:';
const countedKey = (hits: number, ttl: number) => `${COUNTED}${hits}:${ttl}`;
function fromCountedKey(key: string): { current: number; ttl: number } | null {
  if (!key.startsWith(COUNTED)) return null;
  const [hits, ttl] = key.slice(COUNTED.length).split(':');
  return { current: Number(hits), ttl: Number(ttl) };
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The limit a route is held to when it names none: every write to the API, except the development-only routes. */
function defaultKind(method: string | string[], url: string): RateLimitKind | false {
  const methods = Array.isArray(method) ? method : [method];
  const isWrite = methods.some((m) => WRITE_METHODS.has(m.toUpperCase()));
  return isWrite && url.startsWith('/api/') && !url.startsWith('/api/dev/') ? 'writes' : false;
}

/**
 * The plugin's store over the database (table rate_limit_windows), so every API process counts
 * into the same windows. Each route's child store prefixes keys with the route.
 */
function databaseStore(db: Kysely<Database>, clock: Clock): FastifyRateLimitStoreCtor {
  class DatabaseStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = '',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const counted = fromCountedKey(key);
      if (counted) return callback(null, counted);
      const now = clock();
      hitWindow(db, this.prefix + key, now, timeWindow).then(
        ({ hits, resetsAt }) => callback(null, { current: hits, ttl: Math.max(0, resetsAt.getTime() - now.getTime()) }),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The plugin passes the route's merged limit options, with the route itself as routeInfo.
      const info = (
        routeOptions as unknown as {
          routeInfo?: { method?: string | string[]; url?: string; config?: { windowKeyPrefix?: string } };
        }
      ).routeInfo;
      return new DatabaseStore(
        undefined,
        info?.config?.windowKeyPrefix ?? windowKeyPrefix(info?.method ?? '', info?.url ?? ''),
      );
    }
  }
  return DatabaseStore;
}

/**
 * Holds routes to request limits (decision 038) through @fastify/rate-limit: a route names its kind
 * in `config.limit`; writes name none and get 'writes'. A caller is the signed-in renter, else the
 * address (X-Forwarded-For only as far as TRUST_PROXY trusts it). Over the limit: a 429 in the
 * app's error shape with Retry-After. Must be installed before the routes.
 */
export async function installRateLimits(
  app: FastifyInstance,
  deps: { config: Config; db: Kysely<Database>; clock: Clock },
): Promise<void> {
  const { config, db, clock } = deps;
  // Turns each route's kind into the plugin's options; registered before the plugin, so it runs first.
  app.addHook('onRoute', (routeOptions) => {
    const kind = routeOptions.config?.limit ?? defaultKind(routeOptions.method, routeOptions.url ?? '');
    if (kind === false) return;
    routeOptions.config = {
      ...routeOptions.config,
      limit: kind,
      windowKeyPrefix: windowKeyPrefix(routeOptions.method, routeOptions.url ?? ''),
      rateLimit: { max: config.rateLimits[kind], timeWindow: WINDOW_MS },
    };
  });
  await app.register(rateLimit, {
    global: false,
    store: databaseStore(db, clock),
    keyGenerator: async (request: FastifyRequest) => {
      // The console's staff count as themselves, not as the front desk's shared address.
      if (request.url.startsWith(OPS_API)) {
        const staff = await staffSessionOf(request);
        if (staff) return `staff:${staff.staff.id}`;
      } else {
        // A renter's session is found and their hit counted in one statement; the store takes the figures.
        const prefix = request.routeOptions.config.windowKeyPrefix;
        const counted = prefix ? await sessionOfCountingHit(request, prefix + RENTER, WINDOW_MS) : null;
        if (counted) {
          const ttl = Math.max(0, counted.resetsAt.getTime() - clock().getTime());
          return countedKey(counted.hits, ttl);
        }
      }
      const renter = await sessionOf(request);
      return renter ? `${RENTER}${renter.id}` : `ip:${normalizeIP(request.ip)}`;
    },
    errorResponseBuilder: (request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      const kind = request.routeOptions.config.limit || 'writes';
      return new AppError('RATE_LIMITED', rateLimitMessage(kind, seconds), undefined, { retryAfterSeconds: seconds });
    },
  });
}
