import type { FastifyInstance } from 'fastify';
import { SandboxConfirmSetupBody, SandboxSetupIntent } from '@ampere/domain/contract/account';
import { SandboxConfirmPaymentBody, SandboxPaymentIntent } from '@ampere/domain/contract/booking';
import { route } from '../../http/route.ts';
import type { PaymentGateway } from './gateway.ts';
import { SandboxApiError } from './sandbox-errors.ts';
import { SandboxGateway } from './sandbox-gateway.ts';

/**
 * The sandbox provider's browser-facing API, standing in for Stripe.js: registered only when the
 * sandbox is the gateway. Public, as Stripe's is: the client secret is the capability. Its
 * refusals are in Stripe's shape, e.g. 402
 * { statusCode, type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message, param? }.
 */
export function sandboxGatewayRoutes(app: FastifyInstance, gateway: PaymentGateway): void {
  if (!(gateway instanceof SandboxGateway)) return;
  app.register(async (scope) => {
    scope.setErrorHandler((err, _request, reply) => {
      if (err instanceof SandboxApiError) {
        return reply.status(err.statusCode).send({
          statusCode: err.statusCode,
          ...err.body,
          ...(err.body.type === 'card_error' ? { decline_code: err.body.decline_code ?? null } : {}),
        });
      }
      throw err; // anything else goes to the app's handler
    });
    route(scope, {
      method: 'POST',
      url: '/api/sandbox/v1/setup_intents/confirm',
      tag: 'sandbox',
      summary:
        'Sandbox gateway only: confirms a setup intent with a card, as Stripe.js would (Stripe test card numbers; a refused card is a 402 in Stripe’s error shape)',
      body: SandboxConfirmSetupBody,
      response: SandboxSetupIntent,
      handler: ({ body }) => gateway.confirmSetupIntent(body.client_secret, body.card),
    });
    route(scope, {
      method: 'POST',
      url: '/api/sandbox/v1/payment_intents/confirm',
      tag: 'sandbox',
      summary:
        'Sandbox gateway only: confirms a payment intent with a saved card (payment_method) or a new card, as Stripe.js would; a refused card is a 402 in Stripe’s error shape and the intent waits for another card',
      body: SandboxConfirmPaymentBody,
      response: SandboxPaymentIntent,
      handler: ({ body }) =>
        gateway.confirmPaymentIntent(body.client_secret, { payment_method: body.payment_method, card: body.card }),
    });
  });
}
