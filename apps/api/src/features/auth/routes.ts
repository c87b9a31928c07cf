import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  DevSmsList,
  DevSmsQuery,
  OkResult,
  SessionResult,
  SmsSendBody,
  SmsSendResult,
  SmsVerifyBody,
} from '@ampere/domain/contract/account';
import { SESSION_HEADER } from '@ampere/domain/contract/first-screen';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { setSessionCookie } from '../../http/session.ts';
import { type Caller, createAuthService } from './service.ts';
import type { SmsSender } from './sms-sender.ts';

const callerOf = (request: FastifyRequest): Caller => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
  log: request.log,
});

export function authRoutes(
  app: FastifyInstance,
  deps: Deps & { sms: SmsSender; afterSignOut?: (sessionId: string) => Promise<void> },
): void {
  const { sms } = deps;
  const auth = createAuthService({ ...deps, analytics: app.analytics });

  route(app, {
    method: 'POST',
    url: '/api/v1/auth/sms/send',
    tag: 'auth',
    limit: 'sign-in',
    summary: 'Texts a 6-digit sign-in code to a phone (valid 10 minutes; at most 5 an hour per number)',
    body: SmsSendBody,
    response: SmsSendResult,
    handler: ({ body }, request) => auth.sendCode(body.phone, callerOf(request)),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/auth/sms/verify',
    tag: 'auth',
    limit: 'sign-in',
    summary: `Checks the code and signs in, creating the account at the first sign-in; the session token goes in the ${SESSION_HEADER} header`,
    body: SmsVerifyBody,
    response: SessionResult,
    handler: async ({ body }, request, reply) => {
      reply.header('cache-control', 'no-store');
      const session = await auth.verifyCode(body.phone, body.code, callerOf(request));
      setSessionCookie(
        request,
        reply,
        { token: session.session_token, expiresAt: session.session_expires_at },
        deps.config.production,
      );
      return session;
    },
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/auth/logout',
    tag: 'auth',
    summary: 'Ends the current session',
    response: OkResult,
    auth: 'renter',
    handler: async ({ renter }, request, reply) => {
      const done = await auth.logout(renter);
      setSessionCookie(request, reply, null, deps.config.production);
      return done;
    },
  });

  // Only with the built-in sender: with a real provider, codes are read on the phone and nowhere else.
  if (sms.kind === 'console') {
    route(app, {
      method: 'GET',
      url: '/api/dev/sms',
      tag: 'dev',
      summary:
        'Messages the built-in SMS sender has "sent" to a number, newest first (absent when Twilio is configured)',
      query: DevSmsQuery,
      response: DevSmsList,
      handler: ({ query }, _request, reply) => {
        reply.header('cache-control', 'no-store');
        return auth.devOutbox(query.phone);
      },
    });
  }
}
