import type { SandboxCard } from '@ampere/domain/contract/account';
import { ApiError, api } from '../../../shared/api/client.ts';

/**
 * POST /api/sandbox/v1/payment_intents/confirm: the offline gateway's stand-in for Stripe.js
 * confirming a PaymentIntent with a saved card (pm_…) or a new one. Resolves with the payment
 * method used, for the deposit hold that follows; a refused card (402) throws with the provider's
 * message ('Your card was declined.').
 */
export async function confirmSandboxPayment(
  clientSecret: string,
  source: { payment_method: string } | { card: SandboxCard },
): Promise<string> {
  try {
    const intent = await api<{
      id: string;
      status: string;
      payment_method: string | null;
      last_payment_error?: { message: string } | null;
    }>('/api/sandbox/v1/payment_intents/confirm', { method: 'POST', body: { client_secret: clientSecret, ...source } });
    if (intent.status !== 'succeeded' && intent.status !== 'requires_capture') {
      throw new Error(intent.last_payment_error?.message ?? 'Your payment could not be completed. Try another card.');
    }
    return intent.payment_method ?? ('payment_method' in source ? source.payment_method : '');
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) throw new Error(err.message, { cause: err });
    throw err;
  }
}
