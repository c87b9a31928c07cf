import { timingSafeEqual, createHash } from 'node:crypto';
import { z } from 'zod';
import { WebhookSignatureError } from '../payments/gateway.ts';

/**
 * Connecting a renter's car insurance (decision 022): Axle when configured, else the built-in
 * twin, which answers in Axle's shapes. The renter connects in a hosted "Ignition" session; Axle
 * reports its progress by webhook (ignition.opened, .completed with a one-time auth code,
 * .exited, .errored, .attempted), and the auth code is exchanged for an access token that reads
 * the connected account and policy.
 */

/** Axle sends webhooks with a custom header agreed with them; we ask for this one, holding a shared secret. */
export const WEBHOOK_SECRET_HEADER = 'x-axle-webhook-secret';

export const AxleEvent = z.object({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(100),
  createdAt: z.string().max(50),
  data: z
    .object({
      token: z.string().min(1).max(200),
      authCode: z.string().max(500).nullish(),
      result: z.string().max(50).nullish(),
      step: z.string().max(100).nullish(),
      message: z.string().max(500).nullish(),
      user: z
        .object({ id: z.string().max(200) })
        .partial()
        .nullish(),
    })
    .passthrough(),
});
export type AxleEvent = z.infer<typeof AxleEvent>;

/** Axle's Account: the insurance login the renter connected, and whether the connection still works. */
export interface AxleAccount {
  id: string;
  carrier: string;
  connection: {
    status: 'active' | 'credentials-expired' | 'mfa-expired' | 'account-disabled' | 'account-inaccessible' | string;
  };
  policies: string[];
}

/** Axle's Policy: the part we check. Dates are YYYY-MM-DD. */
export interface AxlePolicy {
  id: string;
  account: string;
  carrier: string;
  policyNumber: string;
  isActive: boolean;
  effectiveDate: string | null;
  expirationDate: string | null;
}

export interface InsuranceProvider {
  readonly kind: 'axle' | 'twin';
  /** Starts an Ignition session for a renter: its token and the URL the renter opens. */
  startIgnition(input: {
    userRef: string;
    webhookUri: string;
    redirectUri: string;
    metadata: Record<string, string>;
  }): Promise<{ token: string; ignitionUri: string }>;
  /** Checks the webhook's shared-secret header, then reads it; WebhookSignatureError otherwise. */
  readWebhook(raw: Buffer, secretHeader: string | undefined): AxleEvent;
  /** Trades a one-time auth code for an access token and the ids it opens. */
  exchange(authCode: string): Promise<{ accessToken: string; account: string; policies: string[] }>;
  getAccount(accessToken: string, id: string): Promise<AxleAccount>;
  getPolicy(accessToken: string, id: string): Promise<AxlePolicy>;
}

/** The provider refused or could not be reached. */
export class InsuranceProviderError extends Error {}

/** Compares the webhook header with the shared secret in constant time (hashing evens the lengths). */
export function secretMatches(secret: string, header: string | undefined): boolean {
  if (!header) return false;
  const a = createHash('sha256').update(header).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

export function readAxleEvent(secret: string, raw: Buffer, header: string | undefined): AxleEvent {
  if (!secretMatches(secret, header)) throw new WebhookSignatureError('invalid');
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new WebhookSignatureError('malformed');
  }
  const event = AxleEvent.safeParse(json);
  if (!event.success) throw new WebhookSignatureError('malformed');
  return event.data;
}
