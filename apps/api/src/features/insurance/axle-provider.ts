import { z } from 'zod';
import {
  type AxleAccount,
  type AxlePolicy,
  type InsuranceProvider,
  InsuranceProviderError,
  readAxleEvent,
} from './provider.ts';

export type Fetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{ status: number; text(): Promise<string> }>;

export interface AxleConfig {
  clientId: string;
  clientSecret: string;
  /** The shared secret Axle sends in our custom webhook header. */
  webhookSecret: string;
  baseUrl: string;
}

const Envelope = z.object({ success: z.literal(true), data: z.unknown() });
const Ignition = z.object({ token: z.string().min(1), ignitionUri: z.string().url() });
const Exchange = z.object({
  accessToken: z.string().min(1),
  account: z.string().min(1),
  policies: z.array(z.string()),
});
const Account = z.object({
  id: z.string(),
  carrier: z.string(),
  connection: z.object({ status: z.string() }),
  policies: z.array(z.string()).default([]),
});
const Policy = z.object({
  id: z.string(),
  account: z.string(),
  carrier: z.string(),
  policyNumber: z.string(),
  isActive: z.boolean(),
  effectiveDate: z.string().nullish(),
  expirationDate: z.string().nullish(),
});

/** Axle's API: every call authenticated with x-client-id and x-client-secret; reads of a connection add x-access-token. */
export class AxleInsuranceProvider implements InsuranceProvider {
  readonly kind = 'axle' as const;

  constructor(
    private readonly config: AxleConfig,
    private readonly fetch: Fetch = globalThis.fetch as unknown as Fetch,
  ) {}

  private async call<T>(
    method: string,
    path: string,
    schema: z.ZodType<T>,
    opts: { body?: unknown; accessToken?: string } = {},
  ): Promise<T> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-client-id': this.config.clientId,
      'x-client-secret': this.config.clientSecret,
    };
    if (opts.accessToken) headers['x-access-token'] = opts.accessToken;
    let res: { status: number; text(): Promise<string> };
    try {
      res = await this.fetch(`${this.config.baseUrl}${path}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
    } catch (err) {
      throw new InsuranceProviderError(
        `Axle could not be reached: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const text = await res.text();
    if (res.status < 200 || res.status >= 300)
      throw new InsuranceProviderError(`Axle refused ${method} ${path} (HTTP ${res.status}): ${text.slice(0, 200)}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new InsuranceProviderError(`Axle answered ${method} ${path} with something other than JSON.`);
    }
    const envelope = Envelope.safeParse(json);
    const data = schema.safeParse(envelope.success ? envelope.data.data : undefined);
    if (!data.success) throw new InsuranceProviderError(`Axle answered ${method} ${path} in an unexpected shape.`);
    return data.data;
  }

  startIgnition(input: { userRef: string; webhookUri: string; redirectUri: string; metadata: Record<string, string> }) {
    return this.call('POST', '/ignition', Ignition, {
      body: {
        redirectUri: input.redirectUri,
        webhookUri: input.webhookUri,
        user: { id: input.userRef },
        metadata: input.metadata,
      },
    });
  }

  readWebhook(raw: Buffer, header: string | undefined) {
    return readAxleEvent(this.config.webhookSecret, raw, header);
  }

  exchange(authCode: string) {
    return this.call('POST', '/token/exchange', Exchange, { body: { authCode } });
  }

  async getAccount(accessToken: string, id: string): Promise<AxleAccount> {
    return this.call('GET', `/accounts/${encodeURIComponent(id)}`, Account, { accessToken });
  }

  async getPolicy(accessToken: string, id: string): Promise<AxlePolicy> {
    const p = await this.call('GET', `/policies/${encodeURIComponent(id)}`, Policy, { accessToken });
    return {
      ...p,
      effectiveDate: p.effectiveDate?.slice(0, 10) ?? null,
      expirationDate: p.expirationDate?.slice(0, 10) ?? null,
    };
  }
}
