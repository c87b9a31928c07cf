import { describe, expect, it } from 'vitest';
import { WebhookSignatureError } from '../payments/gateway.ts';
import { type Fetch, AxleInsuranceProvider } from './axle-provider.ts';
import { InsuranceProviderError } from './provider.ts';
import { judgePolicy } from './service.ts';

const CONFIG = {
  clientId: 'cli_test',
  clientSecret: 'secret_test',
  webhookSecret: 'axle-webhook-shared-secret',
  baseUrl: 'https://sandbox.axle.test',
};

function fakeAxle(answers: Record<string, { status: number; body: unknown }>) {
  const calls: { url: string; init: Parameters<Fetch>[1] }[] = [];
  const fetch: Fetch = async (url, init) => {
    calls.push({ url, init });
    const a = answers[`${init.method} ${new URL(url).pathname}`] ?? { status: 404, body: { success: false } };
    return { status: a.status, text: async () => JSON.stringify(a.body) };
  };
  return { fetch, calls };
}

describe('Axle insurance provider', () => {
  it('starts Ignition with the client credentials and reads its token and URI', async () => {
    const { fetch, calls } = fakeAxle({
      'POST /ignition': {
        status: 200,
        body: { success: true, data: { token: 'ign_1', ignitionUri: 'https://ignition.axle.insure/?token=ign_1' } },
      },
    });
    const axle = new AxleInsuranceProvider(CONFIG, fetch);
    const out = await axle.startIgnition({
      userRef: 'u1',
      webhookUri: 'https://rent.example/api/v1/webhooks/insurance/axle',
      redirectUri: 'https://rent.example/trip/AMP-1',
      metadata: { platform_id: 'AMP-1' },
    });
    expect(out).toEqual({ token: 'ign_1', ignitionUri: 'https://ignition.axle.insure/?token=ign_1' });
    expect(calls[0]!.init.headers).toMatchObject({ 'x-client-id': 'cli_test', 'x-client-secret': 'secret_test' });
    expect(JSON.parse(calls[0]!.init.body!)).toEqual({
      redirectUri: 'https://rent.example/trip/AMP-1',
      webhookUri: 'https://rent.example/api/v1/webhooks/insurance/axle',
      user: { id: 'u1' },
      metadata: { platform_id: 'AMP-1' },
    });
  });

  it('exchanges an auth code, then reads the account and policy with the access token', async () => {
    const { fetch, calls } = fakeAxle({
      'POST /token/exchange': {
        status: 200,
        body: { success: true, data: { accessToken: 'tok_1', account: 'acc_1', policies: ['pol_1'] } },
      },
      'GET /accounts/acc_1': {
        status: 200,
        body: {
          success: true,
          data: { id: 'acc_1', carrier: 'GEICO', connection: { status: 'active' }, policies: ['pol_1'] },
        },
      },
      'GET /policies/pol_1': {
        status: 200,
        body: {
          success: true,
          data: {
            id: 'pol_1',
            account: 'acc_1',
            carrier: 'GEICO',
            policyNumber: 'GE-123',
            isActive: true,
            effectiveDate: '2026-01-01T00:00:00.000Z',
            expirationDate: '2027-07-01T00:00:00.000Z',
          },
        },
      },
    });
    const axle = new AxleInsuranceProvider(CONFIG, fetch);
    const access = await axle.exchange('cod_1');
    expect(access).toEqual({ accessToken: 'tok_1', account: 'acc_1', policies: ['pol_1'] });
    const account = await axle.getAccount(access.accessToken, access.account);
    const policy = await axle.getPolicy(access.accessToken, 'pol_1');
    expect(calls[2]!.init.headers['x-access-token']).toBe('tok_1');
    expect(policy.expirationDate).toBe('2027-07-01');
    expect(judgePolicy(account, policy, '2027-06-30')).toEqual({ status: 'ACTIVE', result: 'PASSED', error: null });
    expect(judgePolicy(account, policy, '2027-07-02').status).toBe('PENDING');
    expect(judgePolicy({ ...account, connection: { status: 'mfa-expired' } }, policy, '2027-01-01').status).toBe(
      'MFA_EXPIRED',
    );
    expect(judgePolicy(account, { ...policy, isActive: false }, '2027-01-01').status).toBe('PENDING');
  });

  it('turns a refusal or an odd answer into a provider error', async () => {
    const axle = new AxleInsuranceProvider(
      CONFIG,
      fakeAxle({ 'POST /token/exchange': { status: 400, body: { success: false, message: 'Invalid authCode' } } })
        .fetch,
    );
    await expect(axle.exchange('used')).rejects.toThrow(InsuranceProviderError);
    const odd = new AxleInsuranceProvider(
      CONFIG,
      fakeAxle({ 'POST /ignition': { status: 200, body: { success: true, data: { nope: 1 } } } }).fetch,
    );
    await expect(odd.startIgnition({ userRef: 'u', webhookUri: '/', redirectUri: '/', metadata: {} })).rejects.toThrow(
      /unexpected shape/,
    );
  });

  it('accepts a webhook only with the shared secret header', () => {
    const axle = new AxleInsuranceProvider(CONFIG, fakeAxle({}).fetch);
    const body = Buffer.from(
      JSON.stringify({
        id: 'evt_1',
        type: 'ignition.completed',
        createdAt: '2026-11-22T15:00:00.000Z',
        data: { token: 'ign_1', authCode: 'cod_1', result: 'link' },
      }),
    );
    expect(axle.readWebhook(body, CONFIG.webhookSecret).data.authCode).toBe('cod_1');
    expect(() => axle.readWebhook(body, 'wrong')).toThrow(WebhookSignatureError);
    expect(() => axle.readWebhook(body, undefined)).toThrow(WebhookSignatureError);
    expect(() => axle.readWebhook(Buffer.from('{"id":1}'), CONFIG.webhookSecret)).toThrow(/payload/);
  });
});
