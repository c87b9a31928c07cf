import type { CardError } from './sandbox-cards.ts';

/**
 * An error the sandbox's browser-facing API answers in Stripe's shape: a card error (402) or an
 * invalid request (an unknown client secret, 404; an intent in the wrong state or a bad
 * parameter, 400).
 */
export class SandboxApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: {
      type: 'card_error' | 'invalid_request_error';
      code: string;
      decline_code?: string | null;
      message: string;
      param?: string;
    },
  ) {
    super(body.message);
  }
  static card(error: CardError): SandboxApiError {
    return new SandboxApiError(402, error);
  }

  /** Stripe's 404 for an object looked up by a client secret that names none (`pi_…_secret_…`). */
  static missingBySecret(object: 'payment_intent' | 'setupintent', clientSecret: string): SandboxApiError {
    const id = clientSecret.split('_secret_')[0] ?? '';
    return new SandboxApiError(404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such ${object}: '${id}'`,
    });
  }
}
