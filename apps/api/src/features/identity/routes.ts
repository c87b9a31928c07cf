import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { WebhookReceipt } from '@ampere/domain/contract/booking';
import {
  LatestLicenseVerification,
  LicenseVerificationResult,
  VerificationStartBody,
} from '@ampere/domain/contract/verification';
import { AppError } from '../../http/errors.ts';
import { rawBodyAndHeader, rawBodyRoutes, route } from '../../http/route.ts';
import { FRAMED_BY_SELF } from '../../http/security-headers.ts';
import { acceptForms, escapeHtml, sendPage, twinPage } from '../twins/page.ts';
import {
  type IdentityDeps,
  latestLicenseVerification,
  receiveIdentityWebhook,
  startLicenseVerification,
} from './service.ts';
import { TWIN_OUTCOMES, type TwinIdentityProvider, type TwinSession, isTwinOutcome } from './twin.ts';
import { SIGNATURE_HEADER } from './veriff-webhook.ts';

/** The renter's license checks, and the identity provider's signed webhooks. */
export function identityRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  route(app, {
    method: 'POST',
    url: '/api/v1/verifications/license',
    tag: 'verifications',
    summary:
      "Opens a hosted driver's-license check for the renter (for a trip of theirs, or with no platform_id for trips to come); verification.url opens it",
    body: VerificationStartBody,
    response: LicenseVerificationResult,
    auth: 'renter',
    handler: ({ body, renter }) => startLicenseVerification(deps, renter.id, body.platform_id),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/verifications/license',
    tag: 'verifications',
    summary: "The renter's latest license check, or null",
    response: LatestLicenseVerification,
    auth: 'renter',
    handler: ({ renter }) => latestLicenseVerification(deps, renter.id),
  });
  rawBodyRoutes(app, (scope) => {
    route(scope, {
      method: 'POST',
      url: '/api/v1/webhooks/identity/:provider',
      tag: 'webhooks',
      limit: false,
      summary:
        "The identity provider's signed decisions ('veriff', or 'twin' for the built-in one): X-HMAC-SIGNATURE over the raw body; each applied once",
      params: z.object({ provider: z.string().max(20) }),
      response: WebhookReceipt,
      handler: ({ params }, request) => {
        const { raw, header } = rawBodyAndHeader(request, SIGNATURE_HEADER);
        return receiveIdentityWebhook(deps, params.provider, raw, header);
      },
    });
  });
}

const SessionParams = z.object({ id: z.uuid({ error: 'must be an identity check id' }) });
const FinishForm = z.object({
  outcome: z.string().refine(isTwinOutcome, 'must be one of the offered outcomes'),
  first_name: z.string().trim().max(100).optional(),
  last_name: z.string().trim().max(100).optional(),
});

function sessionPage(session: TwinSession, error?: string): string {
  if (!session)
    return twinPage({
      title: 'Identity check not found',
      flow: 'identity',
      body: '<h1>Identity check not found</h1><p>This link is not valid. Start the check again from your trip.</p>',
    });
  if (session.status === 'abandoned') {
    return twinPage({
      title: 'Identity check cancelled',
      flow: 'identity',
      outcome: 'canceled',
      body: '<p class="brand">Identity check</p><h1>Check cancelled</h1><p>You can start again from your trip whenever you are ready.</p>',
    });
  }
  if (session.status !== 'created' && session.status !== 'started') {
    return twinPage({
      title: 'Checking your license',
      flow: 'identity',
      outcome: 'submitted',
      body: '<p class="brand">Identity check</p><h1 class="done">Thanks — we’re checking your license.</h1><p>This takes a few seconds. You can close this window.</p>',
    });
  }
  const buttons = Object.entries(TWIN_OUTCOMES)
    .map(
      ([value, o]) =>
        `<button type="submit" name="outcome" value="${value}"${value === 'cancel' ? ' class="secondary"' : ''}>${escapeHtml(o.label)}<span class="hint">${escapeHtml(o.hint)}</span></button>`,
    )
    .join('');
  return twinPage({
    title: 'Verify your driver’s license',
    flow: 'identity',
    body: `<p class="brand">Identity check</p>
<h1>Verify your driver’s license</h1>
<p class="note">Test identity service: no photo is taken and no document is read. Choose how this check turns out.</p>
${error ? `<p role="alert" class="note">${escapeHtml(error)}</p>` : ''}
<form method="post" class="card">
<label for="first_name">First name on the license</label><input id="first_name" name="first_name" autocomplete="given-name" value="${escapeHtml(session.first_name ?? '')}">
<label for="last_name">Last name on the license</label><input id="last_name" name="last_name" autocomplete="family-name" value="${escapeHtml(session.last_name ?? '')}">
<label for="document">Document</label><select id="document" name="document"><option>Driver’s license — United States</option></select>
<fieldset style="margin-top:16px"><legend>Outcome</legend><div class="choices">${buttons}</div></fieldset>
</form>`,
  });
}

/** The built-in twin's hosted page (registered only when the twin is the identity provider). */
export function identityTwinRoutes(app: FastifyInstance, twin: TwinIdentityProvider): void {
  app.register(async (scope) => {
    acceptForms(scope);
    scope.get('/twin/identity/:id', { config: FRAMED_BY_SELF }, async (request, reply) => {
      const params = SessionParams.safeParse(request.params);
      const session = params.success ? await twin.getSession(params.data.id) : undefined;
      return sendPage(reply, sessionPage(session), session ? 200 : 404);
    });
    scope.post('/twin/identity/:id', { config: FRAMED_BY_SELF }, async (request, reply) => {
      const params = SessionParams.safeParse(request.params);
      if (!params.success) return sendPage(reply, sessionPage(undefined), 404);
      const form = FinishForm.safeParse(request.body ?? {});
      const session = await twin.getSession(params.data.id);
      if (!session) return sendPage(reply, sessionPage(undefined), 404);
      if (!form.success) return sendPage(reply, sessionPage(session, 'Choose one of the outcomes.'), 400);
      try {
        const outcome = form.data.outcome;
        if (!isTwinOutcome(outcome)) return sendPage(reply, sessionPage(session, 'Choose one of the outcomes.'), 400);
        await twin.finish(session.id, outcome, {
          firstName: form.data.first_name || null,
          lastName: form.data.last_name || null,
        });
      } catch (err) {
        if (err instanceof AppError && err.code === 'CONFLICT') {
          return sendPage(
            reply,
            twinPage({
              title: 'Already finished',
              flow: 'identity',
              body: `<h1>Already finished</h1><p>${escapeHtml(err.message)}</p>`,
            }),
            409,
          );
        }
        throw err;
      }
      return reply.redirect(`/twin/identity/${session.id}`, 303);
    });
  });
}
