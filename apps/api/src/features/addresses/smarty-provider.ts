import type { SuggestedAddress } from '@ampere/domain/contract/account';
import { type AddressProvider, MAX_SUGGESTIONS, type SuggestInput } from './schema.ts';

export const SMARTY_URL = 'https://us-autocomplete-pro.api.smarty.com/lookup';

type Fetch = (
  url: string,
  init: { signal: AbortSignal; headers: Record<string, string> },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

interface SmartySuggestion {
  street_line?: unknown;
  secondary?: unknown;
  city?: unknown;
  state?: unknown;
  zipcode?: unknown;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** Smarty's answer to ours: the five fields we use, missing ones as ''. Suggestions without a street are dropped. */
export function mapSmartySuggestions(body: unknown): SuggestedAddress[] {
  const list = (body as { suggestions?: unknown } | null)?.suggestions;
  if (!Array.isArray(list)) return [];
  return (list as SmartySuggestion[])
    .map((s) => ({
      street_line: text(s.street_line),
      secondary: text(s.secondary),
      city: text(s.city),
      state: text(s.state),
      zipcode: text(s.zipcode),
    }))
    .filter((s) => s.street_line !== '');
}

/**
 * Smarty's US Autocomplete Pro, called from the server with the secret auth id and token (never the
 * browser). Lists in Smarty's query string are separated by semicolons. Failures throw; the route
 * logs them and answers 503 (the web only logs it, spec 8).
 */
export class SmartyAddressProvider implements AddressProvider {
  readonly kind = 'smarty' as const;
  constructor(
    private readonly auth: { authId: string; authToken: string },
    private readonly fetchFn: Fetch = fetch,
    private readonly timeoutMs = 3000,
  ) {}

  async suggest({ search, preferStates, includeStates }: SuggestInput): Promise<SuggestedAddress[]> {
    const url = new URL(SMARTY_URL);
    url.searchParams.set('auth-id', this.auth.authId);
    url.searchParams.set('auth-token', this.auth.authToken);
    url.searchParams.set('search', search);
    url.searchParams.set('max_results', String(MAX_SUGGESTIONS));
    if (includeStates.length) url.searchParams.set('include_only_states', includeStates.join(';'));
    if (preferStates.length) url.searchParams.set('prefer_states', preferStates.join(';'));
    const res = await this.fetchFn(url.toString(), {
      signal: AbortSignal.timeout(this.timeoutMs),
      headers: { accept: 'application/json' },
    });
    // The status only: Smarty's error bodies can echo the request, credentials included.
    if (!res.ok) throw new Error(`Smarty US Autocomplete Pro answered ${res.status}`);
    return mapSmartySuggestions(await res.json());
  }
}
