import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Stripe's webhook signature scheme, which the sandbox uses too
 * (https://docs.stripe.com/webhooks#verify-manually): the header is `t=<unix seconds>,v1=<hex>`,
 * where v1 is HMAC-SHA256 of `${t}.${raw body}` keyed with the endpoint's signing secret; more
 * than one v1 may be sent while a secret is being rolled. An event older than the tolerance is
 * refused, so a captured request cannot be replayed later. Pure: the caller passes the time.
 */

/** Stripe's default tolerance: five minutes. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function computeSignature(secret: string, payload: string | Buffer, timestampSeconds: number): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.`).update(payload).digest('hex');
}

/** The header value for this payload, as the provider sends it. */
export function signatureHeader(secret: string, payload: string | Buffer, timestampSeconds: number): string {
  return `t=${timestampSeconds},v1=${computeSignature(secret, payload, timestampSeconds)}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'invalid' | 'stale' };

/** The `t=` timestamp of a Stripe-style signature header, or null when there is none. */
export function signatureTimestamp(header: string): number | null {
  return parseHeader(header)?.timestamp ?? null;
}

function parseHeader(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

/**
 * Rule: a webhook is accepted only when one of its v1 signatures matches the body under our
 * secret (compared in constant time) and its timestamp is at most `tolerance` seconds away from
 * now, before or after. Stripe's own check lets any future timestamp through; we do not: a
 * signature made for a time to come could be replayed until then (decision 039).
 */
export function verifySignature(
  secret: string,
  payload: string | Buffer,
  header: string | undefined,
  nowSeconds: number,
  toleranceSeconds: number = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
  if (!header) return { ok: false, reason: 'invalid' };
  const parsed = parseHeader(header);
  if (!parsed) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(computeSignature(secret, payload, parsed.timestamp), 'hex');
  const matches = parsed.signatures.some((s) => timingSafeEqual(Buffer.from(s, 'hex'), expected));
  if (!matches) return { ok: false, reason: 'invalid' };
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) return { ok: false, reason: 'stale' };
  return { ok: true };
}
