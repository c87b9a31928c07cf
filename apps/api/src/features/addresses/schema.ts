import { z } from 'zod';
import { USPS_OTHER_STATE_CODES, US_STATES } from '@ampere/domain/address';
import type { SuggestedAddress } from '@ampere/domain/contract/account';

/**
 * GET /api/v1/addresses/suggest: address suggestions for the payment page's address field (spec 3
 * 'Suggested address'; spec 7 'Address autocomplete'). The browser asks our API, never the provider,
 * so the provider's credentials stay on the server.
 */
const KNOWN_STATES = new Set<string>([...US_STATES, ...USPS_OTHER_STATE_CODES]);

/** 'TN,MO' → ['TN', 'MO']: two-letter USPS state codes (any case), comma-separated, each once. */
const StateList = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}(,[A-Za-z]{2})*$/, 'must be two-letter state codes separated by commas, e.g. TN,MO')
  .transform((s) => [...new Set(s.toUpperCase().split(','))])
  .refine((codes) => codes.every((c) => KNOWN_STATES.has(c)), {
    error: (issue) =>
      `must be US state codes; not ${(issue.input as string[]).filter((c) => !KNOWN_STATES.has(c)).join(', ')}`,
  });

export const AddressSuggestQuery = z.object({
  search: z.string().trim().min(1, 'must not be blank').max(120, 'must be at most 120 characters'),
  /** Only addresses in these states, e.g. the 50 states and DC (spec 7: include_only_states). */
  include_only_states: StateList.optional(),
  /** States to list first, e.g. 'TN,MO' (spec 7: the states of the cities we rent in). */
  prefer_states: StateList.optional(),
});
export type AddressSuggestQuery = z.output<typeof AddressSuggestQuery>;

/** At most this many suggestions are returned (Smarty's default max_results). */
export const MAX_SUGGESTIONS = 10;

export interface SuggestInput {
  search: string;
  /** States to list first; all of them among `includeStates` when that is set. */
  preferStates: string[];
  /** Only addresses in these states; empty: any. */
  includeStates: string[];
}

/** What the renter asked for, as the providers take it: preferring a state that is left out would mean nothing. */
export function suggestInput(query: AddressSuggestQuery): SuggestInput {
  const includeStates = query.include_only_states ?? [];
  const preferStates = (query.prefer_states ?? []).filter(
    (s) => includeStates.length === 0 || includeStates.includes(s),
  );
  return { search: query.search, preferStates, includeStates };
}

/** A source of address suggestions: Smarty when configured, the built-in list otherwise. */
export interface AddressProvider {
  readonly kind: 'smarty' | 'builtin';
  suggest(input: SuggestInput): Promise<SuggestedAddress[]>;
}
