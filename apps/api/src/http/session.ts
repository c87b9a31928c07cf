import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, SESSION_HEADER } from '@ampere/domain/contract/first-screen';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from './errors.ts';

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
export async function optionalRenter(
  db: Kysely<Database>,
  clock: Clock,
  request: FastifyRequest,
): Promise<Renter | null> {
  const token = headerToken(request);
  if (!token) return null;
  const row = await db
    .selectFrom('sessions')
    .select(['id', 'user_id'])
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', clock())
    .executeTakeFirst();
  return row ? { id: row.user_id, sessionId: row.id } : null;
}

/** The signed-in renter; a missing, expired or revoked session is a 401. */
export async function requireRenter(db: Kysely<Database>, clock: Clock, request: FastifyRequest): Promise<Renter> {
  const renter = await optionalRenter(db, clock, request);
  if (!renter) {
    const sent = headerToken(request) !== null;
    throw new AppError(
      'UNAUTHORIZED',
      sent ? 'Your session has expired. Please sign in again.' : 'Please sign in to continue.',
    );
  }
  return renter;
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
