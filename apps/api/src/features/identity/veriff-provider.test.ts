import { describe, expect, it } from 'vitest';
import { WebhookSignatureError } from '../payments/gateway.ts';
import { IdentityProviderError } from './provider.ts';
import { type Fetch, VeriffIdentityProvider } from './veriff-provider.ts';
import { sign } from './veriff-webhook.ts';

const CONFIG = { apiKey: 'veriff-api-key', sharedSecret: 'veriff-shared-secret', baseUrl: 'https://veriff.test' };

function fakeFetch(status: number, body: unknown) {
  const calls: { url: string; init: Parameters<Fetch>[1] }[] = [];
  const fetch: Fetch = async (url, init) => {
    calls.push({ url, init });
    return { status, text: async () => (typeof body === 'string' ? body : JSON.stringify(body)) };
  };
  return { fetch, calls };
}

describe('Veriff identity provider', () => {
  it('opens a session with the API key and the renter, and returns its URL', async () => {
    const { fetch, calls } = fakeFetch(201, {
      status: 'success',
      verification: {
        id: 'f04bdb47-d3be-4b28-b028-a652feb060b5',
        url: 'https://alchemy.veriff.com/v/abc',
        vendorData: 'u1',
        host: 'https://alchemy.veriff.com',
        status: 'created',
        sessionToken: 'abc',
      },
    });
    const provider = new VeriffIdentityProvider(CONFIG, fetch);
    const session = await provider.createSession({
      vendorData: 'u1',
      firstName: 'Avery',
      lastName: 'Quinn',
      callbackUrl: 'https://rent.example/trip/AMP-1',
    });
    expect(session).toEqual({ id: 'f04bdb47-d3be-4b28-b028-a652feb060b5', url: 'https://alchemy.veriff.com/v/abc' });
    expect(calls[0]!.url).toBe('https://veriff.test/v1/sessions');
    expect(calls[0]!.init.method).toBe('POST');
    expect(calls[0]!.init.headers['x-auth-client']).toBe('veriff-api-key');
    expect(JSON.parse(calls[0]!.init.body!)).toEqual({
      verification: {
        callback: 'https://rent.example/trip/AMP-1',
        person: { firstName: 'Avery', lastName: 'Quinn' },
        vendorData: 'u1',
      },
    });
  });

  it('turns a refusal, an odd answer or no answer into a provider error', async () => {
    await expect(
      new VeriffIdentityProvider(
        CONFIG,
        fakeFetch(401, {
          status: 'fail',
          code: 1102,
          message: 'Mandatory X-AUTH-CLIENT header containing the API key is missing',
        }).fetch,
      ).createSession({ vendorData: 'u', firstName: null, lastName: null, callbackUrl: '/' }),
    ).rejects.toThrow(IdentityProviderError);
    await expect(
      new VeriffIdentityProvider(CONFIG, fakeFetch(200, '<html>').fetch).createSession({
        vendorData: 'u',
        firstName: null,
        lastName: null,
        callbackUrl: '/',
      }),
    ).rejects.toThrow(IdentityProviderError);
    const down: Fetch = async () => {
      throw new Error('ECONNREFUSED');
    };
    await expect(
      new VeriffIdentityProvider(CONFIG, down).createSession({
        vendorData: 'u',
        firstName: null,
        lastName: null,
        callbackUrl: '/',
      }),
    ).rejects.toThrow(/could not be reached/);
  });

  it('reads a decision signed with the shared secret, and refuses any other', () => {
    const provider = new VeriffIdentityProvider(CONFIG, fakeFetch(200, {}).fetch);
    const body = JSON.stringify({
      status: 'success',
      verification: {
        id: 's1',
        code: 9001,
        status: 'approved',
        reason: null,
        reasonCode: null,
        person: { firstName: 'Avery', lastName: 'Quinn', dateOfBirth: '1990-04-02' },
        document: { number: 'D1234567', type: 'DRIVERS_LICENSE', country: 'US', validUntil: '2030-01-31' },
        decisionTime: '2026-11-22T15:00:00.000Z',
        vendorData: 'u1',
      },
    });
    const hook = provider.readWebhook(Buffer.from(body), sign(CONFIG.sharedSecret, body));
    expect(hook).toMatchObject({
      sessionId: 's1',
      status: 'approved',
      document: { number: 'D1234567', validUntil: '2030-01-31', dateOfBirth: '1990-04-02' },
    });
    expect(hook.decidedAt?.toISOString()).toBe('2026-11-22T15:00:00.000Z');
    expect(() => provider.readWebhook(Buffer.from(body), sign('wrong', body))).toThrow(WebhookSignatureError);
    expect(() => provider.readWebhook(Buffer.from(body), undefined)).toThrow(WebhookSignatureError);
    const odd = JSON.stringify({ hello: 'world' });
    expect(() => provider.readWebhook(Buffer.from(odd), sign(CONFIG.sharedSecret, odd))).toThrow(/payload/);
  });

  it('reads an event webhook as the session moving on', () => {
    const provider = new VeriffIdentityProvider(CONFIG, fakeFetch(200, {}).fetch);
    const body = JSON.stringify({
      id: 's1',
      attemptId: 'a1',
      feature: 'selfid',
      code: 7002,
      action: 'submitted',
      vendorData: 'u1',
    });
    expect(provider.readWebhook(Buffer.from(body), sign(CONFIG.sharedSecret, body))).toMatchObject({
      sessionId: 's1',
      status: 'submitted',
      eventId: 's1:submitted:a1',
    });
  });
});
