import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from './webhook-signature.ts';

const secret = 'whsec_sandbox_test';
const body = '{"id":"evt_1","type":"payment_intent.succeeded"}';
const t = 1_800_000_000;

describe('webhook signatures (Stripe’s scheme)', () => {
  it('rule: the header is t=…,v1=HMAC-SHA256(`${t}.${body}`), exactly what Stripe’s own library accepts', () => {
    const header = signatureHeader(secret, body, t);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    const sdk = new Stripe('sk_test_fake').webhooks;
    expect(sdk.constructEvent(body, header, secret, 300, undefined, t * 1000)).toMatchObject({ id: 'evt_1' });
    expect(sdk.generateTestHeaderString({ payload: body, secret, timestamp: t })).toBe(header);
    expect(verifySignature(secret, body, header, t)).toEqual({ ok: true });
  });

  it('rule: a changed body, another secret, a missing or garbled header is invalid', () => {
    const header = signatureHeader(secret, body, t);
    expect(verifySignature(secret, body.replace('1', '2'), header, t)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySignature('whsec_other', body, header, t)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySignature(secret, body, undefined, t)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySignature(secret, body, 'v1=abc', t)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySignature(secret, body, `t=${t}`, t)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('rule: any one of several v1 signatures may match (a secret being rolled)', () => {
    const good = signatureHeader(secret, body, t).split(',')[1]!;
    expect(verifySignature(secret, body, `t=${t},v1=${'0'.repeat(64)},${good}`, t)).toEqual({ ok: true });
  });

  it('rule: older than five minutes is stale; exactly five minutes is still accepted', () => {
    const header = signatureHeader(secret, body, t);
    expect(verifySignature(secret, body, header, t + 300)).toEqual({ ok: true });
    expect(verifySignature(secret, body, header, t + 301)).toEqual({ ok: false, reason: 'stale' });
  });

  it('rule: more than five minutes in the future is refused too; exactly five minutes ahead is accepted', () => {
    const header = signatureHeader(secret, body, t);
    expect(verifySignature(secret, body, header, t - 300)).toEqual({ ok: true });
    expect(verifySignature(secret, body, header, t - 301)).toEqual({ ok: false, reason: 'stale' });
  });
});
