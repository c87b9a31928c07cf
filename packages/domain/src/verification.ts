import type { ReservationStatus } from './constants.ts';
import { isOpenTrip, securityDepositRequired, type TransactionLike } from './booking.ts';
import { type LocalDate, toLocal } from './time.ts';

/**
 * Verifying the renter (spec 3 and 4): the driver's license, insurance, the security deposit, and
 * the digital key they unlock. The API, the trip page, the profile and the key page all decide
 * with these rules; decision 020 explains the choices the spec leaves open.
 */

// ---- identity (driver's license) ----

/** What `users.license_status` holds once a license check has decided (spec 3: 'approved', otherwise failed). */
export const LICENSE_STATUSES = ['approved', 'declined', 'resubmission', 'expired'] as const;
export type LicenseStatusValue = (typeof LICENSE_STATUSES)[number];

/**
 * A hosted identity check's session, in the identity provider's vocabulary (Veriff's session and
 * decision statuses): made, opened, submitted, then a decision — or expired/abandoned unfinished.
 */
export const IDENTITY_SESSION_STATUSES = [
  'created',
  'started',
  'submitted',
  'approved',
  'declined',
  'resubmission_requested',
  'expired',
  'abandoned',
] as const;
export type IdentitySessionStatus = (typeof IDENTITY_SESSION_STATUSES)[number];

export interface LicenseHolder {
  license_number: string | null;
  /** YYYY-MM-DD */
  license_expiration: string | null;
  license_status: string | null;
  /**
   * Staff let the renter's newest failed or flagged license check through (decision 094); the
   * provider's result stays in license_status.
   */
  license_override?: boolean | null;
}

export type LicenseVerificationStatus = 'required' | 'verified' | 'failed';

/** Rule (spec 4): no status means required; approved means verified; anything else is failed (it offers Try Again). */
export function licenseVerificationStatus(
  user: Pick<LicenseHolder, 'license_status' | 'license_override'> | null | undefined,
): LicenseVerificationStatus {
  if (user?.license_override) return 'verified';
  const status = user?.license_status ?? null;
  if (status === null) return 'required';
  return status === 'approved' ? 'verified' : 'failed';
}

/**
 * Rule (spec 4): license verification is required when there is no renter, no license number, a
 * license that expires before the return date (in the trip's time zone), or a status other than
 * approved.
 */
export function licenseVerificationRequired(
  user: LicenseHolder | null | undefined,
  trip: { return_at: string | Date; timezone: string } | null,
): boolean {
  if (user?.license_override) return false;
  if (!user || !user.license_number) return true;
  if (user.license_status !== 'approved') return true;
  if (trip && user.license_expiration !== null && user.license_expiration < returnDate(trip)) return true;
  return false;
}

function returnDate(trip: { return_at: string | Date; timezone: string }): LocalDate {
  return toLocal(new Date(trip.return_at), trip.timezone).date;
}

// ---- insurance ----

/** Spec 3: an insurance connection's states. */
export const INSURANCE_STATES = [
  'PENDING',
  'ACTIVE',
  'WAIVED',
  'CREDENTIALS_EXPIRED',
  'MFA_EXPIRED',
  'ACCOUNT_DISABLED',
  'ACCOUNT_INACCESSIBLE',
] as const;
export type InsuranceState = (typeof INSURANCE_STATES)[number];

/** Spec 3: what checking a connected policy concluded. */
export const INSURANCE_RESULTS = ['MINIMUM_ELIGIBILITY', 'SKIP_INSURANCE', 'Subscription_490', 'PASSED'] as const;
export type InsuranceResult = (typeof INSURANCE_RESULTS)[number];

/** Rule (spec 4): insurance verification is required unless at least one verification is ACTIVE or WAIVED. */
export function insuranceVerificationRequired(verifications: readonly { status: string }[]): boolean {
  return !verifications.some((v) => v.status === 'ACTIVE' || v.status === 'WAIVED');
}

/** The badge word (spec 4's status badge vocabulary) for an insurance state on the profile. */
export function insuranceBadgeStatus(state: string): string {
  switch (state) {
    case 'ACTIVE':
      return 'active';
    case 'WAIVED':
      return 'waived';
    case 'PENDING':
      return 'pending';
    case 'CREDENTIALS_EXPIRED':
    case 'MFA_EXPIRED':
      return 'expired';
    case 'ACCOUNT_DISABLED':
      return 'disabled';
    case 'ACCOUNT_INACCESSIBLE':
      return 'inaccessible';
    default:
      return state.toLowerCase();
  }
}

// ---- deposit ----

/** Rule (spec 4): the security deposit is required when no pending Deposit transaction holds it. */
export { securityDepositRequired };

// ---- the digital key ----

/** Spec 3: what a renter (or the trip's life) can do to a key. */
export const KEY_ACTIONS = ['PAUSE_KEY', 'UNPAUSE_KEY', 'CREATE_NEW_KEY', 'REVOKE_KEY'] as const;
export type KeyAction = (typeof KEY_ACTIONS)[number];

export const KEY_STATUSES = ['active', 'paused', 'revoked'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** A key opens the car from this long before pickup, so a renter can load luggage and settle in. */
export const KEY_LEAD_MINUTES = 30;

export interface VerificationInputs {
  reservation: {
    status: ReservationStatus;
    pickup_at: string | Date;
    return_at: string | Date;
    timezone: string;
    transactions: readonly TransactionLike[];
  };
  user: LicenseHolder | null | undefined;
  insurance: readonly { status: string }[];
}

/** What still stands between the renter and the key, in the order the trip page asks for it. */
export type Outstanding = 'payment' | 'license' | 'insurance' | 'deposit';

/** What is outstanding before a key: paying (a Started trip), the license, insurance, the deposit. */
export function outstandingForKey({ reservation, user, insurance }: VerificationInputs): Outstanding[] {
  const out: Outstanding[] = [];
  if (reservation.status === 'Started') out.push('payment');
  if (licenseVerificationRequired(user, reservation)) out.push('license');
  if (insuranceVerificationRequired(insurance)) out.push('insurance');
  if (securityDepositRequired(reservation.transactions)) out.push('deposit');
  return out;
}

/**
 * Rule (spec 4): Access Key is disabled when the trip is Started or while license, insurance or
 * deposit is outstanding — and on a trip that is over or cancelled, which has no key.
 */
export function accessKeyDisabled(inputs: VerificationInputs): boolean {
  if (!isKeyTripStatus(inputs.reservation.status)) return true;
  return outstandingForKey(inputs).length > 0;
}

/** Rule (spec 4): a digital key requires identity and insurance verification (and a paid trip with its deposit held). */
export function keyIssuable(inputs: VerificationInputs): boolean {
  return !accessKeyDisabled(inputs);
}

/** Only an upcoming or running trip has a key. */
export function isKeyTripStatus(status: ReservationStatus): boolean {
  return isOpenTrip(status);
}

/** When a key opens the car: from KEY_LEAD_MINUTES before pickup until the return time. */
export function keyWindow(reservation: { pickup_at: string | Date; return_at: string | Date }): {
  from: Date;
  until: Date;
} {
  return {
    from: new Date(new Date(reservation.pickup_at).getTime() - KEY_LEAD_MINUTES * 60_000),
    until: new Date(reservation.return_at),
  };
}

export type KeyRefusal = 'revoked' | 'paused' | 'not_yet' | 'expired';

/** Why a key cannot open the car right now, or null when it can. */
export function keyRefusal(
  key: { status: KeyStatus; valid_from: string | Date; valid_until: string | Date },
  now: Date,
): KeyRefusal | null {
  if (key.status === 'revoked') return 'revoked';
  if (now.getTime() >= new Date(key.valid_until).getTime()) return 'expired';
  if (key.status === 'paused') return 'paused';
  if (now.getTime() < new Date(key.valid_from).getTime()) return 'not_yet';
  return null;
}

/** What the key page says for each refusal. */
export const KEY_REFUSAL_MESSAGES: Record<KeyRefusal, string> = {
  revoked: 'This key has been revoked. Open your trip for a new one.',
  paused: 'This key is paused. Resume it from your trip page to unlock the car.',
  not_yet: `This key starts working ${KEY_LEAD_MINUTES} minutes before pickup.`,
  expired: 'This key has expired: the trip has ended.',
};
