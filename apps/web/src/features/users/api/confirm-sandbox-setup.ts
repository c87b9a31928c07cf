import type { SandboxCard } from '@ampere/domain/contract/account';
import { ApiError, api } from '../../../shared/api/client.ts';

/**
 * POST /api/sandbox/v1/setup_intents/confirm: the offline gateway's stand-in for Stripe.js
 * confirming a SetupIntent. A refused card answers 402 with the provider's message, which is
 * what the renter reads ('Your card was declined.').
 */
export async function confirmSandboxSetup(clientSecret: string, card: SandboxCard): Promise<void> {
  try {
    const intent = await api<{ status: string; last_setup_error?: { message: string } | null }>(
      '/api/sandbox/v1/setup_intents/confirm',
      {
        method: 'POST',
        body: { client_secret: clientSecret, card },
      },
    );
    if (intent.status !== 'succeeded')
      throw new Error(intent.last_setup_error?.message ?? 'Your card could not be saved. Try another card.');
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) throw new Error(err.message, { cause: err });
    throw err;
  }
}
