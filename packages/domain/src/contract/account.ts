import { z } from './zod.ts';
import { ANALYTICS_EVENTS } from '../account.ts';
import { IsoInstant } from './common.ts';

/**
 * The API contract for sign-in, sessions, the renter's profile, saved cards, feature flags and
 * analytics events. The API validates and serialises with these; the web types its calls with them.
 */

// ---- sign-in by text-message code ----

export const SmsSendBody = z.object({
  phone: z.string({ error: 'phone is required' }).trim().min(1, 'is required').max(32, 'must be at most 32 characters'),
});
export const SmsSendResult = z.object({
  /** The normalised number the code went to (E.164), e.g. '+16155550123'. */
  phone: z.string(),
  /** Minutes the code stays valid. */
  expires_in_minutes: z.number().int(),
  /** Seconds before another code may be asked for (the web's resend cooldown). */
  resend_after_seconds: z.number().int(),
});

export const SmsVerifyBody = z.object({
  phone: z.string({ error: 'phone is required' }).trim().min(1, 'is required').max(32, 'must be at most 32 characters'),
  code: z
    .string({ error: 'code is required' })
    .trim()
    .regex(/^\d{6}$/, 'must be the 6 digits from the text message'),
});

export const User = z.object({
  id: z.string(),
  stytch_user_id: z.string(),
  phone: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  /** YYYY-MM-DD */
  birthday: z.string().nullable(),
  address_line1: z.string().nullable(),
  address_line2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip_code: z.string().nullable(),
  country: z.string().nullable(),
  license_name: z.string().nullable(),
  license_number: z.string().nullable(),
  /** YYYY-MM-DD */
  license_expiration: z.string().nullable(),
  license_status: z.string().nullable(),
  /** Staff let the newest failed or flagged license check through (decision 094); license_status keeps the provider's word. */
  license_override: z.boolean().optional(),
  created_at: z.string(),
});
export type User = z.infer<typeof User>;

export const SessionResult = z.object({
  session_token: z.string(),
  /** ISO instant */
  session_expires_at: z.string(),
  user: User,
});
export type SessionResult = z.infer<typeof SessionResult>;

export const OkResult = z.object({ ok: z.literal(true) });

// ---- profile ----

export const UserResult = z.object({ user: User });

/**
 * Spec 5 and 7: PATCH /api/v1/users/profile. Every field is optional; a field sent as null or ''
 * clears an address field; names, email and birthday can be changed but not cleared.
 */
const notClearable = {
  error: (issue: { input?: unknown }) => (issue.input === null ? 'cannot be cleared' : 'must be text'),
};

/** The longest first name, and the longest last name, a profile takes. */
export const NAME_MAX_LENGTH = 60;
/**
 * The longest signature: the longest first and last name the profile takes, with the space
 * between, so that every renter can sign with the name the agreement asks for (decision 052).
 */
export const SIGNATURE_MAX_LENGTH = 2 * NAME_MAX_LENGTH + 1;
const nameField = z
  .string(notClearable)
  .trim()
  .min(1, 'must not be blank')
  .max(NAME_MAX_LENGTH, `must be at most ${NAME_MAX_LENGTH} characters`);

export const ProfilePatchBody = z
  .object({
    first_name: nameField,
    last_name: nameField,
    email: z.string(notClearable).trim().max(254, 'must be at most 254 characters'),
    birthday: z.string(notClearable).trim(),
    address_line1: z.string().trim().max(120, 'must be at most 120 characters').nullable(),
    address_line2: z.string().trim().max(120, 'must be at most 120 characters').nullable(),
    city: z.string().trim().max(80, 'must be at most 80 characters').nullable(),
    state: z.string().trim().max(2, 'must be a two-letter state code').nullable(),
    zip_code: z.string().trim().max(10, 'must be a 5-digit ZIP code').nullable(),
    country: z.string().trim().nullable(),
  })
  .partial()
  .strict();
export type ProfilePatchBody = z.infer<typeof ProfilePatchBody>;

// ---- saved cards ----

export const SavedCard = z.object({
  id: z.string(),
  card_brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int().nullable(),
  exp_year: z.number().int().nullable(),
});
export type SavedCard = z.infer<typeof SavedCard>;
export const SavedCardList = z.object({ cards: z.array(SavedCard) });
export const CardIdParams = z.object({ id: z.string().min(1).max(100) });

/** What the browser needs to confirm a setup or a payment with the gateway. */
export const GatewayClientSecret = z.object({
  provider: z.enum(['stripe', 'sandbox']),
  client_secret: z.string(),
  /** Stripe's publishable key; null for the sandbox. */
  publishable_key: z.string().nullable(),
});
export type GatewayClientSecret = z.infer<typeof GatewayClientSecret>;
export const SetupIntentResult = z.object({ stripe: GatewayClientSecret });

/** The sandbox gateway's browser-side call, standing in for Stripe.js confirming a SetupIntent. */
/** One suggestion from GET /api/v1/addresses/suggest (spec 3 'Suggested address'). */
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

/** A new card typed into the sandbox gateway's form (the offline stand-in for Stripe.js). */
export const SandboxCard = z.object({
  number: z.string().trim().min(1, 'is required').max(23),
  exp_month: z.coerce.number({ error: 'must be a number' }).int(),
  exp_year: z.coerce.number({ error: 'must be a number' }).int(),
  cvc: z.string().trim().min(1, 'is required').max(4),
  postal_code: z.string().trim().max(10).optional(),
});
export type SandboxCard = z.infer<typeof SandboxCard>;

export const SandboxConfirmSetupBody = z.object({
  client_secret: z.string().min(1, 'is required'),
  card: SandboxCard,
});
export const SandboxSetupIntent = z.object({
  id: z.string(),
  status: z.enum(['requires_payment_method', 'requires_confirmation', 'succeeded', 'canceled']),
  payment_method: z.string().nullable(),
  last_setup_error: z.object({ code: z.string(), decline_code: z.string().nullable(), message: z.string() }).nullable(),
});

// ---- insurance ----

export const InsuranceVerification = z.object({
  id: z.string(),
  status: z.string(),
  created_at: z.string(),
  policies: z.array(z.object({ axle_policy_carrier: z.string(), axle_policy_number: z.string() })),
});
export const RecentInsurance = z.object({ insurance_verifications: z.array(InsuranceVerification), user: User });

// ---- feature flags ----

export const FlagValues = z.object({
  'skip-damage-waiver': z.boolean(),
  'button-background': z.string(),
  'icon-color': z.string(),
  'allow-add-card': z.boolean(),
});
export type FlagValues = z.infer<typeof FlagValues>;
export const FlagsResult = z.object({ flags: FlagValues });

// ---- analytics ----

export const AnalyticsEventBody = z.object({
  name: z.enum(ANALYTICS_EVENTS, { error: 'is not a known event name' }),
  properties: z.record(z.string(), z.unknown()).default({}),
  /** When the event happened in the browser (ISO instant); the server's time otherwise. */
  occurred_at: IsoInstant('must be an ISO date-time').optional(),
});
export const AnalyticsBatchBody = z.object({
  /** A random id the browser keeps for a visitor, to link events from before and after sign-in. */
  anonymous_id: z.string().trim().min(1, 'must not be blank').max(100, 'must be at most 100 characters').optional(),
  events: z.array(AnalyticsEventBody).min(1, 'must hold at least one event').max(50, 'must hold at most 50 events'),
});
export const AcceptedResult = z.object({ accepted: z.number().int() });

// ---- dev outbox (console SMS sender only) ----

export const DevSmsQuery = z.object({ phone: z.string().trim().min(1, 'is required') });
export const DevSmsList = z.object({
  messages: z.array(z.object({ to: z.string(), body: z.string(), sent_at: z.string() })),
});
