import { z } from 'zod';

/**
 * GET /api/v1/addresses/suggest: address suggestions for the payment page's address field (spec 3
 * 'Suggested address'; spec 7 'Address autocomplete'). The browser asks our API, never the provider,
 * so the provider's credentials stay on the server.
 */
export const AddressSuggestQuery = z.object({
  search: z.string().trim().min(1, 'must not be blank').max(120, 'must be at most 120 characters'),
  /** States to list first, e.g. 'TN,MO' (the states of the cities we rent in). */
  prefer_states: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}(,[A-Za-z]{2})*$/, 'must be two-letter state codes separated by commas, e.g. TN,MO')
    .transform((s) => s.toUpperCase().split(','))
    .optional(),
});
export type AddressSuggestQuery = z.output<typeof AddressSuggestQuery>;

export const SuggestedAddress = z.object({
  street_line: z.string(),
  /** Apartment, suite…; '' when none. */
  secondary: z.string(),
  city: z.string(),
  /** Two-letter state code. */
  state: z.string(),
  zipcode: z.string(),
});
export type SuggestedAddress = z.infer<typeof SuggestedAddress>;

export const AddressSuggestions = z.object({ suggestions: z.array(SuggestedAddress) });

/** At most this many suggestions are returned (Smarty's default max_results). */
export const MAX_SUGGESTIONS = 10;

export interface SuggestInput {
  search: string;
  preferStates: string[];
}

/** A source of address suggestions: Smarty when configured, the built-in list otherwise. */
export interface AddressProvider {
  readonly kind: 'smarty' | 'builtin';
  suggest(input: SuggestInput): Promise<SuggestedAddress[]>;
}
