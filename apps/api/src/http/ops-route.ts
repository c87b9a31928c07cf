import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { OPS_API, OPS_SESSION_COOKIE } from '@ampere/domain/contract/ops';
import {
  STAFF_ACTIONS,
  STAFF_ROLE_LABELS,
  STAFF_SESSION_MAX_HOURS,
  type StaffAction,
  can,
  inScope,
} from '@ampere/domain/staff';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import { recordAudit } from '../features/audit/repository.ts';
import { type StaffSession, findStaffSession } from '../features/staff/sessions.ts';
import { AppError, notFound } from './errors.ts';
import { type RouteSpec, route } from './route.ts';
import { requestCookie } from './session.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An operator console route: the action it takes, checked against the permission matrix. */
    ops?: { action: StaffAction; auditRead: boolean };
  }
  interface FastifyRequest {
    /** The request's staff session, looked up once (staffSessionOf). */
    staffLookup: Promise<StaffSession | null> | null;
    /** Set once the console's checks let the request in: whose action it is, and whether it was audited. */
    opsCall: { session: StaffSession; audited: boolean } | null;
  }
  interface FastifyInstance {
    /** Where staff sessions are looked up (installStaffSessions). */
    staffSessions: { db: Kysely<Database>; clock: Clock; production: boolean };
  }
}

/** Lets hooks and routes find a request's staff session; call before any route or hook that asks. */
export function installStaffSessions(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; clock: Clock; production: boolean },
): void {
  app.decorate('staffSessions', deps);
  app.decorateRequest('staffLookup', null);
  app.decorateRequest('opsCall', null);
}

/** The staff session the request's console cookie holds, or null; looked up once per request. */
export function staffSessionOf(request: FastifyRequest): Promise<StaffSession | null> {
  if (!request.staffLookup) {
    const token = requestCookie(request, OPS_SESSION_COOKIE);
    const { db, clock } = request.server.staffSessions;
    request.staffLookup = token && token.length <= 200 ? findStaffSession(db, token, clock()) : Promise.resolve(null);
  }
  return request.staffLookup;
}

/**
 * Sets or clears the console's session cookie: HttpOnly, sent only by the console's own pages
 * (SameSite=Strict), and kept at most as long as a staff session may last.
 */
export function setOpsSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string | null): void {
  const secure = request.server.staffSessions.production || request.protocol === 'https' ? '; Secure' : '';
  const value = token
    ? `${OPS_SESSION_COOKIE}=${token}; Max-Age=${STAFF_SESSION_MAX_HOURS * 3600}`
    : `${OPS_SESSION_COOKIE}=; Max-Age=0`;
  reply.header('set-cookie', `${value}; Path=/; HttpOnly; SameSite=Strict${secure}`);
}

/** What a console route's handler acts with. */
export interface OpsContext {
  staff: StaffSession['staff'];
  sessionId: string;
  now: Date;
  /**
   * Writes the action's audit record, in the transaction `db` of the action itself so both land or
   * neither: who and where are filled in. Every write must call it once (the route refuses to
   * answer otherwise).
   */
  audit(
    db: Kysely<Database>,
    entry: { target?: { type: string; id: string }; locationId?: string | null; before?: unknown; after?: unknown },
  ): Promise<void>;
  /** Whether the staff member works at this location. */
  inScope(locationId: string): boolean;
  /**
   * Refuses what belongs to a location the staff member does not work at as if it did not exist:
   * a 404 with `message`, audited as a failure, so nobody learns what another city holds.
   */
  requireInScope(locationId: string, message: string): void;
}

export type OpsRouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> = Omit<
  RouteSpec<P, Q, B, R, 'none'>,
  'handler' | 'auth' | 'tag' | 'config' | 'idempotent'
> & {
  /** The action the route takes; a role the matrix does not allow it gets a 403, audited. */
  action: StaffAction;
  /**
   * A read that opens a renter's details (a lookup, a trip's timeline) is audited like a write;
   * other reads are not.
   */
  auditRead?: boolean;
  handler: (
    input: { params: z.output<P>; query: z.output<Q>; body: z.output<B>; ops: OpsContext },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<z.input<R>> | z.input<R>;
};

const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * The 401 or 403 that keeps a request out of a console route, or null to let it in: signed in as
 * staff, past the passkey step, and in a role the permission matrix allows the action to.
 */
export function opsRefusal(session: StaffSession | null, action: StaffAction, cookieSent: boolean): AppError | null {
  if (!session)
    return new AppError(
      'UNAUTHORIZED',
      cookieSent
        ? 'Your console session has ended. Please sign in again.'
        : 'Please sign in to the operator console to continue.',
    );
  if (!session.passkeyVerified) return new AppError('UNAUTHORIZED', 'Finish signing in with your passkey to continue.');
  if (!can(session.staff.role, action))
    return new AppError(
      'FORBIDDEN',
      `Your role (${STAFF_ROLE_LABELS[session.staff.role]}) cannot ${lower(STAFF_ACTIONS[action])}. Ask an owner if you need to.`,
    );
  return null;
}

/**
 * The console's routes, in a scope of their own (decision 080): before any of them runs, the
 * staff session is checked and the action held to the permission matrix; any refusal or failure
 * (401, 403, a bad field, a clash) is written to the audit log as a failed attempt, after the
 * action's own transaction has rolled back.
 */
export function opsRoutes(app: FastifyInstance, register: (scope: FastifyInstance) => void): void {
  app.register(async (scope) => {
    scope.addHook('preHandler', async (request) => {
      const config = request.routeOptions.config.ops;
      if (!config) return;
      const session = await staffSessionOf(request);
      const refusal = opsRefusal(session, config.action, requestCookie(request, OPS_SESSION_COOKIE) !== null);
      if (refusal) throw refusal;
      request.opsCall = { session: session!, audited: false };
    });
    scope.addHook('onError', async (request, _reply, error) => {
      const config = request.routeOptions.config.ops;
      if (!config) return;
      const session = request.opsCall?.session ?? (await staffSessionOf(request).catch(() => null));
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      const { db, clock } = request.server.staffSessions;
      await recordAudit(db, {
        at: clock(),
        staff: session ? { id: session.staff.id, role: session.staff.role } : null,
        action: config.action,
        target: targetOf(request),
        sourceAddress: request.ip,
        outcome: 'failure',
        // An AppError's words are written for people (a car that did not answer is a 503); a crash's are not.
        reason:
          status >= 500 && !(error instanceof AppError) ? `Internal error (${status})` : `${status}: ${error.message}`,
      }).catch((err: unknown) => request.log.error({ err }, 'could not write the audit record of a failed attempt'));
    });
    register(scope);
  });
}

/**
 * What a refused request aimed at, as far as its path says: the last path parameter naming a
 * thing by id (`/cars/:carId/photos/:view` aims at the car), else the last one.
 */
function targetOf(request: FastifyRequest): { type: string; id: string } | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const entries = Object.entries(params).filter(([, v]) => typeof v === 'string');
  const last = entries.filter(([k]) => k.endsWith('Id')).at(-1) ?? entries.at(-1);
  if (!last) return undefined;
  return { type: last[0].replace(/Id$/, ''), id: String(last[1]).slice(0, 200) };
}

/** Registers one console route, under OPS_API, inside `opsRoutes`' scope. */
export function opsRoute<
  P extends z.ZodType = z.ZodObject,
  Q extends z.ZodType = z.ZodObject,
  B extends z.ZodType = z.ZodObject,
  R extends z.ZodType = z.ZodType,
>(scope: FastifyInstance, spec: OpsRouteSpec<P, Q, B, R>): void {
  const { action, auditRead, handler, url, ...rest } = spec;
  const mustAudit = spec.method !== 'GET' || auditRead === true;
  route(scope, {
    ...rest,
    url: `${OPS_API}${url}`,
    tag: 'Operator console',
    config: { ops: { action, auditRead: auditRead === true } },
    handler: async (input, request, reply) => {
      const call = request.opsCall!;
      const { staff, sessionId } = call.session;
      const now = request.server.staffSessions.clock();
      const ops: OpsContext = {
        staff,
        sessionId,
        now,
        inScope: (locationId) => inScope(staff, locationId),
        requireInScope: (locationId, message) => {
          if (!inScope(staff, locationId)) throw notFound(message);
        },
        audit: async (db, entry) => {
          await recordAudit(db, {
            at: now,
            staff: { id: staff.id, role: staff.role },
            action,
            target: entry.target,
            locationId: entry.locationId ?? null,
            before: entry.before,
            after: entry.after,
            sourceAddress: request.ip,
            outcome: 'success',
          });
          call.audited = true;
        },
      };
      const result = await handler({ params: input.params, query: input.query, body: input.body, ops }, request, reply);
      if (mustAudit && !call.audited)
        throw new Error(`${spec.method} ${OPS_API}${url} answered without writing its audit record.`);
      return result;
    },
  });
}
