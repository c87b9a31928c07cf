import type { IdentityWebhook } from './veriff-webhook.ts';

/**
 * A hosted driver's-license check (document + selfie). Veriff when configured, else the built-in
 * twin; both decide asynchronously and tell us through a signed webhook (decision 021).
 */
export interface IdentityProvider {
  readonly kind: 'veriff' | 'twin';
  /** Opens a session for a renter: the provider's id and the URL the renter's browser opens. */
  createSession(input: {
    vendorData: string;
    firstName: string | null;
    lastName: string | null;
    callbackUrl: string;
  }): Promise<{ id: string; url: string }>;
  /** Checks a webhook's signature over the raw body and reads it; WebhookSignatureError otherwise. */
  readWebhook(raw: Buffer, signature: string | undefined): IdentityWebhook;
}

/** The provider could not be reached or refused us: the renter can try again later. */
export class IdentityProviderError extends Error {}
