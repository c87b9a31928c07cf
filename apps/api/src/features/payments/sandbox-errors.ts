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
}
