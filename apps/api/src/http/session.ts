import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, SESSION_HEADER } from '@ampere/domain/contract/first-screen';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from './errors.ts';
import { findLiveSession } from './session-repository.ts';

export interface Renter {
  id: string;
  sessionId: string;
}

/** Session tokens are stored only as this hash; the token itself is shown once, at login. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function headerToken(request: FastifyRequest): string | null {
  const raw = request.headers[SESSION_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return null;
  const token = value.trim();
  return token.length > 0 && token.length <= 200 ? token : null;
}

/** The signed-in renter, or null when the header is missing or the session is unknown, expired or revoked. */
async function optionalRenter(db: Kysely<Database>, clock: Clock, request: FastifyRequest): Promise<Renter | null> {
  const token = headerToken(request);
  if (!token) return null;
  const row = await findLiveSession(db, hashToken(token), clock());
  return row ? { id: row.user_id, sessionId: row.id } : null;
}

/** The 401 for a request without a live session: it says whether one was sent and has run out. */
function notSignedIn(request: FastifyRequest): AppError {
  const sent = headerToken(request) !== null;
  return new AppError(
    'UNAUTHORIZED',
    sent ? 'Your session has expired. Please sign in again.' : 'Please sign in to continue.',
  );
}

/** Who a route lets in: a signed-in renter, anyone (the renter when signed in), or anyone without looking. */
export type RouteAuth = 'renter' | 'optional' | 'none';

/** What a route's handler is given as `renter`, by its `auth`. */
export type RenterFor<A extends RouteAuth> = A extends 'renter'
  ? Renter
  : A extends 'optional'
    ? Renter | null
    : undefined;

declare module 'fastify' {
  interface FastifyInstance {
    /** Where sessions are looked up (installSessions). */
    sessions: { db: Kysely<Database>; clock: Clock };
  }
  interface FastifyRequest {
    /** The request's session, looked up once however many hooks ask (sessionOf). */
    sessionLookup: Promise<Renter | null> | null;
  }
}

/** Lets hooks and routes find the request's renter; call before any route or hook that asks. */
export function installSessions(app: FastifyInstance, sessions: { db: Kysely<Database>; clock: Clock }): void {
  app.decorate('sessions', sessions);
  app.decorateRequest('sessionLookup', null);
}

/** The request's renter, or null: looked up once per request (the rate limit, idempotency and the route share it). */
export function sessionOf(request: FastifyRequest): Promise<Renter | null> {
  const { db, clock } = request.server.sessions;
  request.sessionLookup ??= optionalRenter(db, clock, request);
  return request.sessionLookup;
}

/** The renter a route with this `auth` runs for: a 401 when it needs one and there is none. */
export async function authenticate<A extends RouteAuth>(request: FastifyRequest, auth: A): Promise<RenterFor<A>> {
  if (auth === 'none') return undefined as unknown as RenterFor<A>;
  const renter = await sessionOf(request);
  if (!renter && auth === 'renter') throw notSignedIn(request);
  return renter as RenterFor<A>;
}

/**
 * Sets or clears the session cookie (decision 046): HttpOnly, for this site's own page requests
 * only, ending with the session. Only page rendering reads it; the API never takes it as a session.
 * Secure in production mode whatever the request looks like (decision 052): behind a proxy that
 * ends TLS, the request the server sees is plain http.
 */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  session: { token: string; expiresAt: string } | null,
  production: boolean,
): void {
  const secure = production || request.protocol === 'https' ? '; Secure' : '';
  const value = session
    ? `${SESSION_COOKIE}=${session.token}; Expires=${new Date(session.expiresAt).toUTCString()}`
    : `${SESSION_COOKIE}=; Max-Age=0`;
  reply.header('set-cookie', `${value}; Path=/; HttpOnly; SameSite=Lax${secure}`);
}
