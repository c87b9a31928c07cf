import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { IdentitySessionStatus } from '@ampere/domain/verification';
import { WebhookSignatureError } from '../payments/gateway.ts';

/**
 * Veriff's webhooks, which the built-in twin sends too: a JSON body signed in `X-HMAC-SIGNATURE`
 * with the hex HMAC-SHA256 of the exact bytes under the integration's shared secret. Two kinds:
 * an event webhook as the renter moves through the flow (`action` 'started' or 'submitted'), and
 * a decision webhook (`verification.status` approved, declined, resubmission_requested, expired,
 * abandoned) carrying what was read from the document.
 */

export const SIGNATURE_HEADER = 'x-hmac-signature';

export function sign(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

export function verify(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header || !/^[0-9a-f]{64}$/i.test(header)) return false;
  return timingSafeEqual(Buffer.from(header.toLowerCase(), 'hex'), Buffer.from(sign(secret, body), 'hex'));
}

/** Veriff's decision codes for each final status. */
export const DECISION_CODES = {
  approved: 9001,
  declined: 9102,
  resubmission_requested: 9103,
  expired: 9104,
  abandoned: 9104,
} as const;
export type DecisionStatus = keyof typeof DECISION_CODES;

const EventBody = z.object({
  id: z.string().min(1).max(200),
  attemptId: z.string().max(200).optional(),
  feature: z.string().max(100).optional(),
  code: z.number().int(),
  action: z.enum(['started', 'submitted']),
  vendorData: z.string().max(400).nullish(),
});

const DecisionBody = z.object({
  status: z.string(),
  verification: z.object({
    id: z.string().min(1).max(200),
    code: z.number().int(),
    status: z.enum(['approved', 'declined', 'resubmission_requested', 'expired', 'abandoned']),
    reason: z.string().max(500).nullish(),
    reasonCode: z.number().int().nullish(),
    person: z
      .object({
        firstName: z.string().max(200).nullish(),
        lastName: z.string().max(200).nullish(),
        dateOfBirth: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .nullish(),
        idNumber: z.string().max(100).nullish(),
      })
      .nullish(),
    document: z
      .object({
        number: z.string().max(100).nullish(),
        type: z.string().max(100).nullish(),
        country: z.string().max(10).nullish(),
        validUntil: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .nullish(),
      })
      .nullish(),
    decisionTime: z.string().nullish(),
    acceptanceTime: z.string().nullish(),
    vendorData: z.string().max(400).nullish(),
  }),
});

export interface IdentityDocument {
  firstName: string | null;
  lastName: string | null;
  /** YYYY-MM-DD */
  dateOfBirth: string | null;
  number: string | null;
  /** YYYY-MM-DD */
  validUntil: string | null;
}

/** A webhook, read: an id to apply it once by, the session, its new status, and for a decision what was read. */
export interface IdentityWebhook {
  eventId: string;
  type: string;
  sessionId: string;
  status: IdentitySessionStatus;
  reason: string | null;
  decidedAt: Date | null;
  document: IdentityDocument | null;
}

/**
 * Checks the signature over the raw body first, then reads it. Veriff's bodies carry no event id,
 * so the id is the session, the status and the decision time: a retry of the same webhook has the
 * same id and is applied once.
 */
export function readWebhook(secret: string, raw: Buffer, signature: string | undefined): IdentityWebhook {
  if (!verify(secret, raw, signature)) throw new WebhookSignatureError('invalid');
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new WebhookSignatureError('malformed');
  }
  const event = EventBody.safeParse(json);
  if (event.success) {
    const e = event.data;
    return {
      eventId: `${e.id}:${e.action}:${e.attemptId ?? ''}`,
      type: `event.${e.action}`,
      sessionId: e.id,
      status: e.action,
      reason: null,
      decidedAt: null,
      document: null,
    };
  }
  const decision = DecisionBody.safeParse(json);
  if (!decision.success) throw new WebhookSignatureError('malformed');
  const v = decision.data.verification;
  const decidedAt = v.decisionTime && !Number.isNaN(Date.parse(v.decisionTime)) ? new Date(v.decisionTime) : null;
  return {
    eventId: `${v.id}:${v.status}:${v.decisionTime ?? ''}`,
    type: `decision.${v.status}`,
    sessionId: v.id,
    status: v.status,
    reason: v.reason ?? null,
    decidedAt,
    document: {
      firstName: v.person?.firstName ?? null,
      lastName: v.person?.lastName ?? null,
      dateOfBirth: v.person?.dateOfBirth ?? null,
      number: v.document?.number ?? null,
      validUntil: v.document?.validUntil ?? null,
    },
  };
}
