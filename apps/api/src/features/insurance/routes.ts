import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { WebhookReceipt } from '@ampere/domain/contract/booking';
import { InsuranceIgnitionResult, VerificationStartBody } from '@ampere/domain/contract/verification';
import { AppError } from '../../http/errors.ts';
import { rawBodyAndHeader, rawBodyRoutes, route } from '../../http/route.ts';
import { FRAMED_BY_SELF } from '../../http/security-headers.ts';
import { acceptForms, escapeHtml, sendPage, twinPage } from '../twins/page.ts';
import { WEBHOOK_SECRET_HEADER } from './provider.ts';
import { type InsuranceDeps, receiveInsuranceWebhook, startInsuranceVerification } from './service.ts';
import { CARRIERS, TWIN_OUTCOMES, type TwinIgnition, type TwinInsuranceProvider, isTwinOutcome } from './twin.ts';

/** The renter's insurance connections, and the insurance provider's webhooks. */
export function insuranceRoutes(app: FastifyInstance, deps: InsuranceDeps): void {
  route(app, {
    method: 'POST',
    url: '/api/v1/verifications/insurance',
    tag: 'verifications',
    summary:
      "Starts connecting the renter's car insurance (for a trip of theirs, or with no platform_id for trips to come); ignition_uri opens it",
    body: VerificationStartBody,
    response: InsuranceIgnitionResult,
    auth: 'renter',
    handler: ({ body, renter }) => startInsuranceVerification(deps, renter.id, body.platform_id),
  });
  rawBodyRoutes(app, (scope) => {
    route(scope, {
      method: 'POST',
      url: '/api/v1/webhooks/insurance/:provider',
      tag: 'webhooks',
      limit: false,
      summary:
        "The insurance provider's Ignition events ('axle', or 'twin' for the built-in one), authenticated by the shared-secret header; each applied once",
      params: z.object({ provider: z.string().max(20) }),
      response: WebhookReceipt,
      handler: ({ params }, request) => {
        const { raw, header } = rawBodyAndHeader(request, WEBHOOK_SECRET_HEADER);
        return receiveInsuranceWebhook(deps, params.provider, raw, header);
      },
    });
  });
}

const TokenParams = z.object({ token: z.string().regex(/^ign_[A-Za-z0-9_-]{10,60}$/) });
const FinishForm = z.object({
  outcome: z.string().refine(isTwinOutcome, 'must be one of the offered outcomes'),
  carrier: z.enum(CARRIERS),
  username: z.string().max(200).optional(),
  password: z.string().max(200).optional(),
});

const ENDED: Record<string, { outcome: string; title: string; text: string }> = {
  completed: {
    outcome: 'completed',
    title: 'Policy shared',
    text: 'Your policy details are on their way to Ampere. You can close this window.',
  },
  exited: {
    outcome: 'exited',
    title: 'Connection closed',
    text: 'Nothing was shared. You can connect your insurance any time from your trip.',
  },
  errored: {
    outcome: 'error',
    title: 'Something went wrong',
    text: 'Your carrier did not respond. Please try again later.',
  },
};

function ignitionPage(ignition: TwinIgnition, notice?: string): string {
  if (!ignition)
    return twinPage({
      title: 'Connection not found',
      flow: 'insurance',
      body: '<h1>Connection not found</h1><p>This link is not valid. Start again from your trip.</p>',
    });
  const ended = ENDED[ignition.status];
  if (ended)
    return twinPage({
      title: ended.title,
      flow: 'insurance',
      outcome: ended.outcome,
      body: `<p class="brand">Insurance connection</p><h1 class="done">${escapeHtml(ended.title)}</h1><p>${escapeHtml(ended.text)}</p>`,
    });
  const carriers = CARRIERS.map(
    (c) => `<option${c === ignition.carrier ? ' selected' : ''}>${escapeHtml(c)}</option>`,
  ).join('');
  const buttons = Object.entries(TWIN_OUTCOMES)
    .map(
      ([value, o]) =>
        `<button type="submit" name="outcome" value="${value}"${value === 'exit' ? ' class="secondary"' : ''}>${escapeHtml(o.label)}<span class="hint">${escapeHtml(o.hint)}</span></button>`,
    )
    .join('');
  return twinPage({
    title: 'Connect your insurance',
    flow: 'insurance',
    body: `<p class="brand">Insurance connection</p>
<h1>Connect your insurance</h1>
<p class="note">Test insurance service: no carrier is contacted. Pick a carrier and how the connection turns out.</p>
${notice ? `<p role="alert" class="note">${escapeHtml(notice)}</p>` : ''}
<form method="post" class="card">
<label for="carrier">Insurance carrier</label><select id="carrier" name="carrier">${carriers}</select>
<label for="username">Carrier username</label><input id="username" name="username" autocomplete="username" value="driver@example.com">
<label for="password">Carrier password</label><input id="password" name="password" type="password" autocomplete="current-password" value="test-password">
<fieldset style="margin-top:16px"><legend>Outcome</legend><div class="choices">${buttons}</div></fieldset>
</form>`,
  });
}

/** The built-in twin's hosted Ignition page (registered only when the twin is the insurance provider). */
export function insuranceTwinRoutes(app: FastifyInstance, twin: TwinInsuranceProvider): void {
  app.register(async (scope) => {
    acceptForms(scope);
    scope.get('/twin/insurance/:token', { config: FRAMED_BY_SELF }, async (request, reply) => {
      const params = TokenParams.safeParse(request.params);
      const ignition = params.success ? await twin.getIgnition(params.data.token) : undefined;
      return sendPage(reply, ignitionPage(ignition), ignition ? 200 : 404);
    });
    scope.post('/twin/insurance/:token', { config: FRAMED_BY_SELF }, async (request, reply) => {
      const params = TokenParams.safeParse(request.params);
      const ignition = params.success ? await twin.getIgnition(params.data.token) : undefined;
      if (!ignition) return sendPage(reply, ignitionPage(undefined), 404);
      const form = FinishForm.safeParse(request.body ?? {});
      if (!form.success || !isTwinOutcome(form.data.outcome))
        return sendPage(reply, ignitionPage(ignition, 'Pick a carrier and one of the outcomes.'), 400);
      try {
        await twin.finish(ignition.token, form.data.outcome, form.data.carrier);
      } catch (err) {
        if (err instanceof AppError && err.code === 'CONFLICT') {
          return sendPage(
            reply,
            twinPage({
              title: 'Already finished',
              flow: 'insurance',
              body: `<h1>Already finished</h1><p>${escapeHtml(err.message)}</p>`,
            }),
            409,
          );
        }
        throw err;
      }
      if (form.data.outcome === 'wrong_password')
        return sendPage(
          reply,
          ignitionPage(ignition, `${form.data.carrier} did not accept that username and password. Try again.`),
          200,
        );
      return reply.redirect(`/twin/insurance/${ignition.token}`, 303);
    });
  });
}
