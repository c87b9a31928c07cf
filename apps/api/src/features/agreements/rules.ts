import { isBeforePickup } from '@ampere/domain/booking';
import type { ReservationStatus } from '@ampere/domain/constants';
import type { AgreementType } from '@ampere/domain/contract/booking';
import { addDays, todayIn } from '@ampere/domain/time';

/**
 * What a renter sees when the trip is past signing, by its status. Agreements are signed on the way
 * to paying, so only before pickup.
 */
export function unsignableReason(status: ReservationStatus): string | null {
  if (isBeforePickup(status)) return null;
  if (status === 'Canceled') return 'This trip was canceled, so there is nothing to sign.';
  return 'Agreements are signed before pickup, and this trip has already started.';
}

/**
 * How far the date the renter's device sends may be from today in the trip's zone. A renter in
 * New York signing for a Phoenix car at 00:30 their time is on the next day there; a day either
 * way covers every US zone pair without letting a back-dated or post-dated signature through.
 */
export const SIGNING_DATE_TOLERANCE_DAYS = 1;

export function isAcceptableSigningDate(date: string, now: Date, timeZone: string): boolean {
  const today = todayIn(now, timeZone);
  return date >= addDays(today, -SIGNING_DATE_TOLERANCE_DAYS) && date <= addDays(today, SIGNING_DATE_TOLERANCE_DAYS);
}

/** Names compared as a person would: case, spacing and Unicode composition do not matter. */
export function normalizeName(value: string): string {
  return value.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('en-US');
}

/** The name a signature must match: the profile's first and last name, when both are set. */
export function profileName(first: string | null, last: string | null): string | null {
  const f = first?.trim();
  const l = last?.trim();
  return f && l ? `${f} ${l}`.replace(/\s+/g, ' ') : null;
}

export function signatureMatches(signature: string, expected: string): boolean {
  return normalizeName(signature) === normalizeName(expected);
}

export const AGREEMENT_TITLES: Record<AgreementType, string> = {
  RENTAL_AGREEMENT: 'Rental Agreement',
  DAMAGE_WAIVER: 'Collision Protection Waiver',
  LIABILITY_INSURANCE: 'Liability Insurance',
};

/** 'Ampere-Rental-Agreement-AMP-7K2Q-9XD4.pdf': what a renter's download is called. */
export function documentFileName(productName: string, type: AgreementType, platformId: string): string {
  const safeId = platformId.replace(/[^A-Za-z0-9-]/g, '');
  return `${productName}-${AGREEMENT_TITLES[type].replace(/\s+/g, '-')}-${safeId}.pdf`;
}
