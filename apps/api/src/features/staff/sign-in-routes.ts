import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OPS_API, StaffMe } from '@ampere/domain/contract/ops';
import {
  OpsCodeBody,
  OpsCodeResult,
  OpsVerifyBody,
  OpsVerifyResult,
  PasskeyOptions,
  PasskeyResponseBody,
  SignedInResult,
} from '@ampere/domain/contract/ops-staff';
import { STAFF_ACTION_IDS, can } from '@ampere/domain/staff';
import { AppError } from '../../http/errors.ts';
import { opsRefusal, setOpsSessionCookie, staffSessionOf } from '../../http/ops-route.ts';
import { route } from '../../http/route.ts';
import { requestCookie } from '../../http/session.ts';
import { OPS_SESSION_COOKIE } from '@ampere/domain/contract/ops';
import { type Caller, type StaffSignInDeps, createStaffSignIn } from './sign-in.ts';

const callerOf = (request: FastifyRequest): Caller => ({
  ip: request.ip,
  log: request.log,
  origin: `${request.protocol}://${request.host}`,
});

/**
 * Staff sign-in (decision 081), outside the console's door since the caller is not signed in yet:
 * a texted code, then a passkey. Each call is held to the sign-in request limit.
 */
export function staffSignInRoutes(app: FastifyInstance, deps: StaffSignInDeps): void {
  const signIn = createStaffSignIn(deps);
  const tag = 'Operator console sign-in';

  route(app, {
    method: 'POST',
    url: `${OPS_API}/auth/code`,
    tag,
    limit: 'sign-in',
    summary: 'Texts a 6-digit code to a staff member’s phone; any other number gets the same answer and no text',
    body: OpsCodeBody,
    response: OpsCodeResult,
    handler: ({ body }, request) => signIn.sendCode(body.phone, callerOf(request)),
  });
  route(app, {
    method: 'POST',
    url: `${OPS_API}/auth/verify`,
    tag,
    limit: 'sign-in',
    summary: 'Checks the code and starts a staff session with the passkey step still to do (in the console’s cookie)',
    body: OpsVerifyBody,
    response: OpsVerifyResult,
    handler: async ({ body }, request, reply) => {
      reply.header('cache-control', 'no-store');
      const { token, result } = await signIn.verifyCode(body.phone, body.code, callerOf(request));
      setOpsSessionCookie(request, reply, token);
      return result;
    },
  });
  route(app, {
    method: 'POST',
    url: `${OPS_API}/auth/passkey/register/options`,
    tag,
    limit: 'sign-in',
    summary: 'WebAuthn options to create the staff member’s passkey (first sign-in only)',
    response: PasskeyOptions,
    handler: async (_input, request) => signIn.registrationOptions(await staffSessionOf(request), callerOf(request)),
  });
  route(app, {
    method: 'POST',
    url: `${OPS_API}/auth/passkey/register`,
    tag,
    limit: 'sign-in',
    summary: 'Stores the new passkey and finishes signing in',
    body: PasskeyResponseBody,
    response: SignedInResult,
    handler: async ({ body }, request) =>
      signIn.register(await staffSessionOf(request), body.response, callerOf(request)),
  });
  route(app, {
    method: 'POST',
    url: `${OPS_API}/auth/passkey/options`,
    tag,
    limit: 'sign-in',
    summary: 'WebAuthn options to sign in with the staff member’s passkey',
    response: PasskeyOptions,
    handler: async (_input, request) => signIn.authenticationOptions(await staffSessionOf(request), callerOf(request)),
  });
  route(app, {
    method: 'POST',
    url: `${OPS_API}/auth/passkey`,
    tag,
    limit: 'sign-in',
    summary: 'Checks the passkey’s answer and finishes signing in',
    body: PasskeyResponseBody,
    response: SignedInResult,
    handler: async ({ body }, request) =>
      signIn.authenticate(await staffSessionOf(request), body.response, callerOf(request)),
  });
  route(app, {
    method: 'POST',
    url: `${OPS_API}/auth/sign-out`,
    tag,
    summary: 'Ends the staff session and clears its cookie',
    response: SignedInResult,
    handler: async (_input, request, reply) => {
      const done = await signIn.signOut(await staffSessionOf(request), callerOf(request));
      setOpsSessionCookie(request, reply, null);
      return done;
    },
  });
  route(app, {
    method: 'GET',
    url: `${OPS_API}/me`,
    tag,
    summary: 'The signed-in staff member, their role and what it allows; 401 until the passkey step is done',
    response: StaffMe,
    handler: async (_input, request, reply) => {
      reply.header('cache-control', 'no-store');
      const session = await staffSessionOf(request);
      // The same words as the console's door; every role may read the day, so only the session decides.
      const refusal = opsRefusal(session, 'today.read', requestCookie(request, OPS_SESSION_COOKIE) !== null);
      if (refusal) throw refusal;
      if (!session) throw new AppError('UNAUTHORIZED', 'Please sign in to the operator console to continue.');
      return {
        id: session.staff.id,
        name: session.staff.name,
        phone: session.staff.phone,
        role: session.staff.role,
        locationIds: session.staff.locationIds,
        actions: STAFF_ACTION_IDS.filter((a) => can(session.staff.role, a)),
        sessionEndsAt: session.endsAt.toISOString(),
      };
    },
  });
}
