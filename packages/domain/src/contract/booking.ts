import { z } from './zod.ts';
import { ADDON_TYPES, CANCEL_REASONS, COLORS, IMAGE_VIEWS, RESERVATION_STATUSES } from '../constants.ts';
import { KEY_STATUSES } from '../verification.ts';
import { GatewayClientSecret, SIGNATURE_MAX_LENGTH, SandboxCard } from './account.ts';
import { Location, VehicleModel } from './catalog.ts';
import { Cents, LocalDateParam, LocalTimeParam } from './common.ts';
import { PAYMENT_INTENT_STATUSES, type PaymentIntentStatus } from '../payment-statuses.ts';

/**
 * The API contract for booking: reservations and their line items, add-ons, agreements,
 * discounts, the soft credit check, payments and provider webhooks. Spec sections 3, 4 and 7.
 */

export const TRANSACTION_CATEGORIES = [
  'Rack',
  'Addon',
  'Additional',
  'Violation',
  'Incidental',
  'Reimbursement',
  'Tax',
  'Deposit',
  'Damage Waiver',
] as const;
export type TransactionCategory = (typeof TRANSACTION_CATEGORIES)[number];
export const TRANSACTION_STATUSES = ['Pending', 'Successful', 'Captured', 'Failed', 'Canceled', 'Refunded'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export const AGREEMENT_TYPES = ['RENTAL_AGREEMENT', 'DAMAGE_WAIVER', 'LIABILITY_INSURANCE'] as const;
export type AgreementType = (typeof AGREEMENT_TYPES)[number];
export const RENTAL_TYPES = ['BUSINESS', 'LEISURE'] as const;
export type RentalType = (typeof RENTAL_TYPES)[number];

/** Spec 8: the message of the 409 on reservation creation, shown in the Vehicle Unavailable dialog. */
export const VEHICLE_UNAVAILABLE_MESSAGE =
  "We're sorry, but the vehicle you've selected is no longer available for your requested dates. Please modify your trip dates or search for other vehicles.";
/** The 404 for a trip id that is not the signed-in renter's (or does not exist), on every route taking one. */
export const TRIP_NOT_FOUND_MESSAGE = 'No trip with that id.';
/**
 * Optional request header (1–200 characters) on POST /api/v1/reservations: a retry with the same
 * key and body gets the first request's answer (same status, same JSON) and never a second booking.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The platform id: what the spec calls the reservation id in paths (`/trip/{platform_id}`). */
export const PlatformId = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(40, 'must be at most 40 characters')
  .regex(/^[A-Z0-9]+(-[A-Z0-9]+)+$/i, 'must be a trip id like AMP-7K2Q-9XD4');

export const Transaction = z.object({
  id: z.string(),
  category: z.enum(TRANSACTION_CATEGORIES),
  status: z.enum(TRANSACTION_STATUSES),
  description: z.string(),
  /** Unit price in cents (per day for daily items). */
  cost: Cents,
  /** Total in cents before the discount. */
  amount: Cents,
  captured_amount: Cents,
  discount_amount: Cents,
  number_of_days: z.number().int().nullable(),
  /** YYYY-MM-DD in the reservation's zone (a rack day's date). */
  effective_date: z.string().nullable(),
  initiated_at: z.string(),
  released_at: z.string().nullable(),
  card_last_4: z.string().nullable(),
  stripe_payment_intent_id: z.string().nullable(),
  stripe_reserve_applied_payment_intent_id: z.string().nullable(),
  addon: z.object({ id: z.string(), type: z.enum(ADDON_TYPES), amount: Cents }).nullable(),
});
export type Transaction = z.infer<typeof Transaction>;

export const Agreement = z.object({
  id: z.string(),
  type: z.enum(AGREEMENT_TYPES),
  platform_id: z.string(),
  signature: z.string(),
  /** YYYY-MM-DD */
  date: z.string(),
  rental_type: z.enum(RENTAL_TYPES),
  created_at: z.string(),
});
export type Agreement = z.infer<typeof Agreement>;

export const ReservationVehicle = z.object({
  vin: z.string(),
  year: z.number().int(),
  color: z.enum(COLORS),
  odometer: z.number().int(),
  rack_rate: Cents,
  battery_type: z.string(),
  images: z.array(z.object({ view: z.enum(IMAGE_VIEWS), image_url: z.string() })),
  model: VehicleModel,
});

export const ReservationLocation = Location.pick({
  id: true,
  name: true,
  street: true,
  city: true,
  state: true,
  zip_code: true,
  latitude: true,
  longitude: true,
  timezone: true,
  pickup_instructions_html: true,
  return_instructions_html: true,
  tax_rate_ppm: true,
});

/** A trip's digital key as its renter sees it (decision 023). The token is the capability the key page uses. */
export const DigitalKey = z.object({
  token: z.string(),
  status: z.enum(KEY_STATUSES),
  valid_from: z.string(),
  valid_until: z.string(),
});
export type DigitalKey = z.infer<typeof DigitalKey>;

export const Reservation = z.object({
  id: z.string(),
  platform_id: z.string(),
  status: z.enum(RESERVATION_STATUSES),
  /** ISO instants; shown in `timezone`. */
  pickup_at: z.string(),
  return_at: z.string(),
  timezone: z.string(),
  created_at: z.string(),
  vehicle: ReservationVehicle,
  pickup_location: ReservationLocation,
  dropoff_location: ReservationLocation,
  /** Cents still to pay: pending line items other than the deposit, net of discounts. */
  payment_balance: Cents,
  payment_method: z.object({ card_brand: z.string().nullable(), last4: z.string() }).nullable(),
  damage_waiver: z.boolean(),
  rental_type: z.enum(RENTAL_TYPES).nullable(),
  discount_code: z.string().nullable(),
  is_eligible: z.boolean().nullable(),
  transactions: z.array(Transaction),
  agreements: z.array(Agreement),
  insurance_verifications: z.array(z.object({ id: z.string(), status: z.string() })),
  /** Decision 027: new dates asked for and not yet paid (ISO instants), or null. The car is held for them meanwhile. */
  requested_change: z.object({ pickup_at: z.string(), return_at: z.string(), requested_at: z.string() }).nullable(),
  /** Decision 027: the trip's pickup and return before its last applied change of dates, and when it applied; or null. */
  last_change: z.object({ pickup_at: z.string(), return_at: z.string(), changed_at: z.string() }).nullable(),
  /**
   * Spec 4 and 9, judged on the server's clock (the page never asks the browser's): whether the trip
   * can be cancelled now, and the instant free cancellation ends (one day before pickup, on the
   * pickup place's clock).
   */
  can_cancel: z.boolean(),
  free_cancellation_until: z.string(),
  /** Decision 053: why a Canceled trip was cancelled; null for any other status (and trips cancelled before it was recorded). */
  cancel_reason: z.enum(CANCEL_REASONS).nullable(),
  /** The live (active or paused) key, or null: given once paid and verified. */
  key: DigitalKey.nullable(),
  rides: z.array(
    z.object({
      vin: z.string(),
      mileage_in: z.number().nullable(),
      mileage_out: z.number().nullable(),
      battery_in: z.number().nullable(),
      battery_out: z.number().nullable(),
      vehicle_pickup_at: z.string().nullable(),
      vehicle_return_at: z.string().nullable(),
    }),
  ),
});
export type Reservation = z.infer<typeof Reservation>;
export const ReservationResult = z.object({ reservation: Reservation });

export const ReservationLists = z.object({
  upcoming: z.array(Reservation),
  active: z.array(Reservation),
  past: z.array(Reservation),
  canceled: z.array(Reservation),
});

export const ReservationIdParams = z.object({ id: PlatformId });

const AddonIds = z
  .array(z.string().min(1).max(60), { error: 'must be a list of add-on ids' })
  .max(10, 'must hold at most 10 add-ons');

/** Spec 7: POST /api/v1/reservations. Dates and times are local to `vehicleTimezone`. */
export const ReservationCreateBody = z.object({
  vehicleVin: z.string().regex(/^[A-HJ-NPR-Z0-9]{17}$/i, 'must be a 17-character VIN'),
  pickupDate: LocalDateParam,
  pickupTime: LocalTimeParam,
  returnDate: LocalDateParam,
  returnTime: LocalTimeParam,
  addonIds: AddonIds.default([]),
  vehicleTimezone: z.string().min(1, 'is required').max(64),
  gclid: z.string().max(200).nullable().optional(),
});
export type ReservationCreateBody = z.infer<typeof ReservationCreateBody>;

export const ConflictCheckBody = ReservationCreateBody.pick({
  vehicleVin: true,
  pickupDate: true,
  pickupTime: true,
  returnDate: true,
  returnTime: true,
  vehicleTimezone: true,
}).extend({
  /** A trip being modified does not conflict with itself. */
  platform_id: PlatformId.optional(),
});
export const ConflictCheckResult = z.object({
  is_available: z.boolean(),
  conflicts: z.array(z.object({ pickup_at: z.string(), return_at: z.string() })),
});

/** POST /api/v1/reservations/{id}/change (and /change/preview): the trip's new dates, local to its pickup place. */
export const DateChangeBody = z.object({
  pickupDate: LocalDateParam,
  pickupTime: LocalTimeParam,
  returnDate: LocalDateParam,
  returnTime: LocalTimeParam,
});
export type DateChangeBody = z.infer<typeof DateChangeBody>;

/** What a change of dates would add, before the renter commits to it. */
export const DateChangePreview = z.object({
  is_available: z.boolean(),
  added_days: z.number().int(),
  items: z.array(z.object({ description: z.string(), amount: Cents })),
  tax: Cents,
  /** What the renter pays for the change: the items and their tax. */
  total: Cents,
});
export type DateChangePreview = z.infer<typeof DateChangePreview>;

/** Spec 7: PATCH /api/v1/reservations/addons — the existing pending add-on ids plus the waiver id. */
export const AddonsPatchBody = z.object({ platform_id: PlatformId, addon_ids: AddonIds });

/** What the browser needs to pay: the charge's secret and, on a new reservation, the deposit hold's. */
export const PaymentSecrets = GatewayClientSecret.extend({
  /** The charge of the pending line items; null when nothing is owed (e.g. only the deposit is left to secure). */
  client_secret: z.string().nullable(),
  /** The deposit hold to confirm with the same card; null when the reservation already has one. */
  deposit_client_secret: z.string().nullable(),
});
export type PaymentSecrets = z.infer<typeof PaymentSecrets>;

/** A response that may carry `stripe` (spec 3: creating a payment, applying a discount or adding add-ons replaces the client secret). */
export const ReservationWithSecret = z.object({ reservation: Reservation, stripe: PaymentSecrets.nullable() });

export const PlatformIdBody = z.object({ platform_id: PlatformId });
export const EligibilityResult = z.object({ is_eligible: z.boolean() });

/**
 * POST /api/v1/discounts/apply. Spec 7: the trip is `platform_id`, or `platformId` in some flows;
 * either is taken, both only when they name the same trip. Read as `platform_id`.
 */
export const DiscountApplyBody = z
  .object({
    code: z.string().trim().min(1, 'is required').max(40, 'must be at most 40 characters'),
    platform_id: PlatformId.optional(),
    platformId: PlatformId.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.platform_id === undefined && body.platformId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['platform_id'], message: 'is required (or platformId)' });
    } else if (
      body.platform_id !== undefined &&
      body.platformId !== undefined &&
      body.platform_id.toUpperCase() !== body.platformId.toUpperCase()
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['platformId'],
        message: 'names another trip than platform_id; send one of them',
      });
    }
  })
  .transform(({ code, platform_id, platformId }) => ({ code, platform_id: (platform_id ?? platformId)! }));

export const AgreementCreateBody = z.object({
  type: z.enum(AGREEMENT_TYPES, { error: `must be one of ${AGREEMENT_TYPES.join(', ')}` }),
  platform_id: PlatformId,
  /** The renter's first and last name as typed. */
  signature: z
    .string()
    .trim()
    .min(3, 'must be your first and last name')
    .max(SIGNATURE_MAX_LENGTH, `must be at most ${SIGNATURE_MAX_LENGTH} characters`),
  date: LocalDateParam,
  rental_type: z.enum(RENTAL_TYPES, { error: `must be one of ${RENTAL_TYPES.join(', ')}` }),
});
export const AgreementResult = z.object({ agreement: Agreement });
export const AgreementIdParams = z.object({ id: z.uuid({ error: 'must be an agreement id' }) });
export const SignedUrlResult = z.object({ signed_url: z.string(), expires_at: z.string() });

/** The sandbox gateway's browser-side call, standing in for Stripe.js confirming a PaymentIntent. */
export const SandboxConfirmPaymentBody = z.object({
  client_secret: z.string().min(1, 'is required'),
  /** A saved card (pm_…) or a new card; a new card is saved to the customer when the intent says so. */
  payment_method: z.string().optional(),
  card: SandboxCard.optional(),
});
export { PAYMENT_INTENT_STATUSES, type PaymentIntentStatus };

export const SandboxPaymentIntent = z.object({
  id: z.string(),
  status: z.enum(PAYMENT_INTENT_STATUSES),
  amount: Cents,
  payment_method: z.string().nullable(),
  last_payment_error: z
    .object({ code: z.string(), decline_code: z.string().nullable(), message: z.string() })
    .nullable(),
});

/** POST /api/v1/webhooks/{provider}: the provider's event was recorded (and applied once). */
export const WebhookReceipt = z.object({
  received: z.literal(true),
  /** This event id had already been received: nothing was applied again. */
  duplicate: z.boolean().optional(),
});
