import type { RefObject } from 'react';
import type { PaymentSecrets } from '@ampere/domain/contract/booking';
import { confirmSandboxPayment } from './api/confirm-sandbox-payment.ts';
import { NEW_CARD } from './components/payment-method.tsx';
import { heldPayment, noteChargeConfirmed, noteDepositHeld } from './payment-secret-store.ts';

/** The card the renter pays with: a saved one (its pm_ id) or the one in the card form. */
export type CardSource =
  { kind: 'saved'; paymentMethod: string } | { kind: 'new'; confirmNew(clientSecret: string): Promise<string> };

/** Confirms an intent with a payment method id at the gateway; resolves with the payment method used. */
export type ConfirmWithMethod = (clientSecret: string, paymentMethod: string) => Promise<string>;

/** The gateway's confirm with a payment method id: the sandbox's browser call, or Stripe.js. */
export function confirmWithFor(secrets: PaymentSecrets): ConfirmWithMethod {
  if (secrets.provider === 'stripe') {
    return async (clientSecret, paymentMethod) =>
      (await import('./components/stripe-pay.tsx')).stripeConfirmWithMethod(
        secrets.publishable_key ?? '',
        clientSecret,
        paymentMethod,
      );
  }
  return (clientSecret, paymentMethod) => confirmSandboxPayment(clientSecret, { payment_method: paymentMethod });
}

/**
 * The card the chosen payment method stands for: a saved card's id, or the card form, whose confirm
 * is read when it is needed (the form puts it in `confirmNew` once it is drawn).
 */
export function cardSourceFor(
  method: string,
  confirmNew: RefObject<((clientSecret: string) => Promise<string>) | null>,
): CardSource {
  if (method !== NEW_CARD) return { kind: 'saved', paymentMethod: method };
  return {
    kind: 'new',
    confirmNew: (secret) =>
      confirmNew.current
        ? confirmNew.current(secret)
        : Promise.reject(new Error('The card form is still loading. Try again in a moment.')),
  };
}

/**
 * Confirms the charge first (with the saved card or the new one), then the deposit hold with the
 * payment method the charge used. Intents already confirmed on an earlier try are skipped. Throws
 * with the provider's message when a card is refused.
 */
export async function payWithGateway(
  platformId: string,
  secrets: PaymentSecrets,
  source: CardSource,
  confirmWith: ConfirmWithMethod,
): Promise<void> {
  const state = heldPayment(platformId);
  let method = state?.chargedWith ?? null;
  if (secrets.client_secret && !method) {
    method =
      source.kind === 'saved'
        ? await confirmWith(secrets.client_secret, source.paymentMethod)
        : await source.confirmNew(secrets.client_secret);
    noteChargeConfirmed(platformId, method);
  }
  if (secrets.deposit_client_secret && !state?.depositHeld) {
    const with_ = method ?? (source.kind === 'saved' ? source.paymentMethod : null);
    if (with_) await confirmWith(secrets.deposit_client_secret, with_);
    else if (source.kind === 'new') await source.confirmNew(secrets.deposit_client_secret);
    noteDepositHeld(platformId);
  }
}
