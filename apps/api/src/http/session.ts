import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_RENEW_EVERY_MINUTES, renewedSessionEnd } from '@ampere/domain/account';
import { SESSION_COOKIE, SESSION_EXPIRES_HEADER, SESSION_HEADER } from '@ampere/domain/contract/first-screen';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from './errors.ts';
import {
  type LiveSessionRow,
  findLiveSession,
  findLiveSessionCountingHit,
  renewSession,
} from './session-repository.ts';

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

/** A request's live session: its renter, when it now ends, and whether this request renewed it. */
interface LiveSession extends Renter {
  token: string;
  expiresAt: Date;
  renewed: boolean;
}

const MINUTE_MS = 60_000;

/**
 * The signed-in renter, or null when the header is missing or the session is unknown, expired or
 * revoked. Each use renews the session to 1440 minutes from now, at most once every 10 minutes
 * (decision 072): a write per renewal, not per request.
 */
async function liveSession(db: Kysely<Database>, clock: Clock, request: FastifyRequest): Promise<LiveSession | null> {
  const token = headerToken(request);
  if (!token) return null;
  const now = clock();
  const row = await findLiveSession(db, hashToken(token), now);
  return row ? keptAlive(db, now, token, row) : null;
}

/** A live session found at `now`, renewed when it is due (decision 072). */
async function keptAlive(db: Kysely<Database>, now: Date, token: string, row: LiveSessionRow): Promise<LiveSession> {
  const session = { id: row.user_id, sessionId: row.id, token, expiresAt: new Date(row.expires_at), renewed: false };
  const end = renewedSessionEnd(session.expiresAt, now);
  if (!end) return session;
  const due = new Date(end.getTime() - SESSION_RENEW_EVERY_MINUTES * MINUTE_MS);
  if (await renewSession(db, row.id, end, due)) return { ...session, expiresAt: end, renewed: true };
  // Another request renewed it a moment ago: its end is at least `due`, and this one leaves it.
  return session;
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
    sessionLookup: Promise<LiveSession | null> | null;
  }
}

/**
 * Lets hooks and routes find the request's renter; call before any route or hook that asks. Every
 * answer to a request made with a live session says when the session now ends (the browser keeps
 * its copy in step), and a renewal moves the session cookie's end too (decision 072).
 */
export function installSessions(
  app: FastifyInstance,
  sessions: { db: Kysely<Database>; clock: Clock; production: boolean },
): void {
  app.decorate('sessions', { db: sessions.db, clock: sessions.clock });
  app.decorateRequest('sessionLookup', null);
  app.addHook('onSend', async (request, reply) => {
    if (!request.sessionLookup) return;
    const session = await request.sessionLookup.catch(() => null);
    if (!session) return;
    reply.header(SESSION_EXPIRES_HEADER, session.expiresAt.toISOString());
    // The cookie the server draws first screens with, when this browser has it (not when the call
    // itself sets one, as signing in again does).
    if (session.renewed && requestCookie(request, SESSION_COOKIE) === session.token && !reply.hasHeader('set-cookie'))
      setSessionCookie(
        request,
        reply,
        { token: session.token, expiresAt: session.expiresAt.toISOString() },
        sessions.production,
      );
  });
}

/** A cookie the request carries, by name. */
export function requestCookie(request: FastifyRequest, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return null;
}

/** The request's renter, or null: looked up once per request (the rate limit, idempotency and the route share it). */
export function sessionOf(request: FastifyRequest): Promise<Renter | null> {
  const { db, clock } = request.server.sessions;
  request.sessionLookup ??= liveSession(db, clock, request);
  return request.sessionLookup;
}

/**
 * For a request to a limited route: looks up its session and, when it is live, counts one hit on
 * the renter's window (the key `keyPrefix` followed by the renter's id) in the same round trip; the
 * window's hits and end. Later `sessionOf` calls reuse the session. Null when nothing was counted:
 * no session header, the session already looked up, or none live (then `sessionOf` answers null
 * without asking again) — the caller counts the request as it would have.
 */
export async function sessionOfCountingHit(
  request: FastifyRequest,
  keyPrefix: string,
  windowMs: number,
): Promise<{ hits: number; resetsAt: Date } | null> {
  if (request.sessionLookup) return null;
  const token = headerToken(request);
  if (!token) return null;
  const { db, clock } = request.server.sessions;
  const now = clock();
  let counted: { hits: number; resetsAt: Date } | undefined;
  request.sessionLookup = findLiveSessionCountingHit(db, hashToken(token), now, keyPrefix, windowMs).then((found) => {
    if (!found) return null;
    counted = found.window;
    return keptAlive(db, now, token, found.session);
  });
  await request.sessionLookup;
  return counted ?? null;
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
