import { z } from 'zod';
import { type IdentityProvider, IdentityProviderError } from './provider.ts';
import { readWebhook } from './veriff-webhook.ts';

export type Fetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{ status: number; text(): Promise<string> }>;

export interface VeriffConfig {
  apiKey: string;
  sharedSecret: string;
  baseUrl: string;
}

const SessionCreated = z.object({
  status: z.literal('success'),
  verification: z.object({ id: z.string().min(1), url: z.string().url(), status: z.string() }),
});

/**
 * Veriff's station API: POST /v1/sessions with the integration's API key in X-AUTH-CLIENT makes a
 * session whose `verification.url` the renter opens (spec 7). Decisions arrive by webhook.
 */
export class VeriffIdentityProvider implements IdentityProvider {
  readonly kind = 'veriff' as const;

  constructor(
    private readonly config: VeriffConfig,
    private readonly fetch: Fetch = globalThis.fetch as unknown as Fetch,
  ) {}

  async createSession(input: {
    vendorData: string;
    firstName: string | null;
    lastName: string | null;
    callbackUrl: string;
  }) {
    const body = JSON.stringify({
      verification: {
        callback: input.callbackUrl,
        person: { firstName: input.firstName ?? undefined, lastName: input.lastName ?? undefined },
        vendorData: input.vendorData,
      },
    });
    let res: { status: number; text(): Promise<string> };
    try {
      res = await this.fetch(`${this.config.baseUrl}/v1/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-client': this.config.apiKey },
        body,
      });
    } catch (err) {
      throw new IdentityProviderError(
        `Veriff could not be reached: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const text = await res.text();
    if (res.status < 200 || res.status >= 300)
      throw new IdentityProviderError(`Veriff refused the session (HTTP ${res.status}): ${text.slice(0, 200)}`);
    let parsed;
    try {
      parsed = SessionCreated.safeParse(JSON.parse(text));
    } catch {
      throw new IdentityProviderError('Veriff answered with something other than JSON.');
    }
    if (!parsed.success) throw new IdentityProviderError('Veriff answered without a session URL.');
    return { id: parsed.data.verification.id, url: parsed.data.verification.url };
  }

  readWebhook(raw: Buffer, signature: string | undefined) {
    return readWebhook(this.config.sharedSecret, raw, signature);
  }
}
