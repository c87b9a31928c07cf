import { z } from './zod.ts';
import { IDENTITY_SESSION_STATUSES, INSURANCE_STATES, KEY_ACTIONS } from '../verification.ts';
import { DigitalKey, PlatformId } from './booking.ts';

/**
 * The API contract for verifying the renter and for the digital key (spec 3, 4 and 7):
 * the license check, the insurance connection, the key and the car it opens.
 */

/**
 * POST /api/v1/verifications/license and /insurance. `platform_id` names the trip being verified;
 * left out (onboarding), the check is the renter's own, for trips to come.
 */
export const VerificationStartBody = z.object({ platform_id: PlatformId.optional() });
export type VerificationStartBody = z.infer<typeof VerificationStartBody>;

/** One hosted license check. `url` opens the provider's flow (the built-in twin's is on this server). */
export const IdentityVerification = z.object({
  id: z.string(),
  status: z.enum(IDENTITY_SESSION_STATUSES),
  url: z.string(),
  /** The provider's reason for a decision other than approved (e.g. 'Document expired'), else null. */
  reason: z.string().nullable(),
  created_at: z.string(),
});
export type IdentityVerification = z.infer<typeof IdentityVerification>;
export const LicenseVerificationResult = z.object({ verification: IdentityVerification });
/** GET /api/v1/verifications/license: the renter's latest license check, or null. */
export const LatestLicenseVerification = z.object({ verification: IdentityVerification.nullable() });

/** POST /api/v1/verifications/insurance: where the renter connects a policy. */
export const InsuranceIgnitionResult = z.object({
  ignition_uri: z.string(),
  insurance_verification: z.object({ id: z.string(), status: z.enum(INSURANCE_STATES) }),
});
export type InsuranceIgnitionResult = z.infer<typeof InsuranceIgnitionResult>;

export { DigitalKey };

/** POST /api/v1/reservations/{id}/key: the renter acts on the trip's key; answers with the reservation. */
export const KeyActionBody = z.object({ action: z.enum(KEY_ACTIONS) });

/** What the vehicle reports: lock state, odometer (miles) and battery (fraction 0–1). */
export const CarState = z.object({
  locked: z.boolean(),
  odometer_miles: z.number(),
  battery_level: z.number(),
  updated_at: z.string(),
});
export type CarState = z.infer<typeof CarState>;

export const KeyTokenParams = z.object({
  token: z.string().min(20, 'must be a key token').max(200, 'must be a key token'),
});
export const CarCommandBody = z.object({ command: z.enum(['lock', 'unlock']) });

/** GET /api/v1/keys/{token}: the key page (public; the token is the capability). */
export const KeyPageResult = z.object({
  key: DigitalKey.omit({ token: true }),
  /** Why the key cannot open the car now ('revoked', 'paused', 'not_yet', 'expired'), or null. */
  refusal: z.enum(['revoked', 'paused', 'not_yet', 'expired']).nullable(),
  message: z.string().nullable(),
  platform_id: z.string(),
  pickup_at: z.string(),
  return_at: z.string(),
  timezone: z.string(),
  vehicle: z.object({
    vin: z.string(),
    year: z.number(),
    color: z.string(),
    model: z.string(),
    image_url: z.string().nullable(),
  }),
  pickup_location: z.object({
    name: z.string(),
    street: z.string(),
    city: z.string(),
    state: z.string(),
    zip_code: z.string(),
    timezone: z.string(),
  }),
  car: CarState,
});
export type KeyPageResult = z.infer<typeof KeyPageResult>;
export const CarStateResult = z.object({ car: CarState });
