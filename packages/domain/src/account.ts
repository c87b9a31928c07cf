import { MINIMUM_RENTER_AGE } from './constants.ts';
import { US_INHABITED_TERRITORIES, US_STATES } from './address.ts';
import type { LocalDate } from './time.ts';

/** Rule (spec 9): a login code is valid for 10 minutes. */
export const LOGIN_CODE_TTL_MINUTES = 10;
/**
 * Rule (spec 9): a session lasts 1440 minutes, counted from its last use (decision 072): each use
 * renews it, so a renter who opens the app on pickup morning is still signed in.
 */
export const SESSION_TTL_MINUTES = 1440;
/** A session is renewed at most this often, so a renter's every request is not also a write. */
export const SESSION_RENEW_EVERY_MINUTES = 10;

/**
 * Rule (decision 072): the session's new end when it is used at `now`: `now` + 1440 minutes, once
 * its last renewal (its end minus 1440 minutes) is at least 10 minutes old; null when it was renewed
 * more recently (it keeps its end) or has already ended (an ended session is never revived).
 */
export function renewedSessionEnd(expiresAt: Date, now: Date): Date | null {
  const end = expiresAt.getTime();
  if (end <= now.getTime()) return null;
  const lastRenewed = end - SESSION_TTL_MINUTES * 60_000;
  if (now.getTime() - lastRenewed < SESSION_RENEW_EVERY_MINUTES * 60_000) return null;
  return new Date(now.getTime() + SESSION_TTL_MINUTES * 60_000);
}
/** A code dies after this many wrong tries. */
export const LOGIN_CODE_MAX_ATTEMPTS = 5;
/** At most this many codes are sent to one phone in an hour. */
export const SMS_SENDS_PER_PHONE_PER_HOUR = 5;
/** The web's resend cooldown, in seconds. */
export const SMS_RESEND_COOLDOWN_SECONDS = 30;
/** Rule (spec 9): saved cards listed on the payment page. */
export const SAVED_CARDS_LISTED = 3;

/** Spec 7: the analytics events the product records. */
export const ANALYTICS_EVENTS = [
  'search_performed',
  'filter_applied',
  'vehicle_card_clicked',
  'booking_started',
  'damage_waiver_accepted',
  'damage_waiver_declined',
  'damage_waiver_selected_on_booking_card',
  'agreements_signed',
  'payment_completed',
  'payment_failed',
  'payment_button_clicked',
  'id_verified',
  'insurance_verified',
  'paid_and_verified',
  'reservation_eligibility_check_success',
  'reservation_eligibility_check_failed',
  'user_birthday_updated',
  'user_address_updated',
  'auth_started',
  'auth_completed',
  'book_now_clicked',
  'vehicle_details_viewed',
  'vehicle_photos_viewed',
  'location_selected',
  'trip_ended',
] as const;
export type AnalyticsEventName = (typeof ANALYTICS_EVENTS)[number];

/** Spec 3: feature flags and their defaults. */
export const FLAG_DEFAULTS = {
  'skip-damage-waiver': false,
  'button-background': '#0b3d2e',
  'icon-color': '#e6f7ef',
  'allow-add-card': true,
} as const satisfies Record<string, boolean | string>;
export type FlagKey = keyof typeof FLAG_DEFAULTS;

/**
 * '+16155550123' → '(615) 555-0123': a number of North America's plan written as its people write
 * it; null for any other, which `formatPhone` (phone.ts) writes in international form. Apart from
 * phone.ts so a page that shows a US number does not load the phone library (decision 105).
 */
export function formatNorthAmericanPhone(e164: string): string | null {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : null;
}

/** Rule (spec 5): an email is '{local}@{domain}.{tld}' with no spaces. */
export function isValidEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

/** Rule (spec 5): empty gives 'Email is required'; a bad format 'Please enter a valid email address'. */
export function emailError(value: string): string | null {
  if (value.trim() === '') return 'Email is required';
  if (!isValidEmail(value.trim())) return 'Please enter a valid email address';
  return null;
}

/** The latest birthday a renter can have today: `today` minus 18 years (29 Feb → 28 Feb). */
export function latestAllowedBirthday(today: LocalDate, minimumAge = MINIMUM_RENTER_AGE): LocalDate {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const year = y - minimumAge;
  const lastDay = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${year}-${String(m).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}` as LocalDate;
}

/** Rule (spec 5): a birthday is a real YYYY-MM-DD date at least 18 years before today. */
export function birthdayError(value: string, today: LocalDate): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return 'Birthday must be a date written YYYY-MM-DD';
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d)
    return 'Birthday is not a real date';
  if (y < 1900) return 'Birthday must be after 1900';
  if (value > latestAllowedBirthday(today))
    return `You must be at least ${MINIMUM_RENTER_AGE} years old to rent with us`;
  return null;
}

/** The US states, DC and the inhabited territories, by their two-letter postal codes. */
export const US_STATE_CODES = [...US_STATES, ...US_INHABITED_TERRITORIES] as const;

/** Rule: an address state is a real US postal code, two letters, in any case ('tn' is read as 'TN'). */
export function stateError(value: string): string | null {
  return (US_STATE_CODES as readonly string[]).includes(value.trim().toUpperCase())
    ? null
    : 'State must be a two-letter US state code, e.g. TN';
}

/** Rule: a ZIP code is 5 digits, or ZIP+4 written 12345-6789. */
export function zipError(value: string): string | null {
  return /^\d{5}(-\d{4})?$/.test(value.trim()) ? null : 'ZIP code must be 5 digits, e.g. 37203';
}

/** Rule (spec 7): the only country is 'us' (any case is accepted and written lowercase). */
export function countryError(value: string): string | null {
  return value.trim().toLowerCase() === 'us'
    ? null
    : `We only rent to renters with a United States address; country must be 'us', not '${value.trim()}'`;
}

/** Age in whole years on `today`. */
export function ageOn(birthday: LocalDate, today: LocalDate): number {
  const [by, bm, bd] = birthday.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

const MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Rule (spec 2, profile card): 'Adventuring since {Mon YYYY}', from when the account was made. */
export function adventuringSince(createdAt: string | Date, timeZone = 'America/Chicago'): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric' }).formatToParts(
    new Date(createdAt),
  );
  const month = Number(parts.find((p) => p.type === 'month')!.value);
  const year = parts.find((p) => p.type === 'year')!.value;
  return `Adventuring since ${MONTHS_SHORT[month - 1]} ${year}`;
}

/** Rule (spec 2): the profile card shows the renter's data only when first name and email exist. */
export function hasProfileCard(user: { first_name: string | null; email: string | null } | null | undefined): boolean {
  return Boolean(user?.first_name && user?.email);
}

/** Rule (spec 4): the profile's license badge is 'expired' if the expiration is before now, else 'active'. */
export function licenseBadge(expiration: LocalDate | null, today: LocalDate): 'expired' | 'active' {
  return expiration !== null && expiration < today ? 'expired' : 'active';
}

export type BadgeType = 'success' | 'error' | 'warning' | 'waived' | 'default';

/** Rule (spec 4): the status badge vocabulary, its colours and its labels. */
export function statusBadge(status: string | null | undefined): { label: string; type: BadgeType } {
  const s = (status ?? '').toLowerCase().replace(/_/g, ' ').trim();
  if (['active', 'approved', 'authorized', 'paid', 'verified'].includes(s)) return { label: s, type: 'success' };
  if (s === 'disabled' || s === 'account disabled') return { label: 'Account Disabled', type: 'error' };
  if (s === 'inaccessible' || s === 'account inaccessible') return { label: 'Account Inaccessible', type: 'error' };
  if (['declined', 'required', 'failed'].includes(s)) return { label: s, type: 'error' };
  if (['review', 'pending'].includes(s)) return { label: s, type: 'warning' };
  if (s === 'waived') return { label: s, type: 'waived' };
  if (s === 'resubmission') return { label: 'Resubmission Requested', type: 'default' };
  return { label: s || 'unknown', type: 'default' };
}

export const CARD_BRANDS = ['visa', 'mastercard', 'american express', 'discover', 'elo'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** Rule (spec 5): card brand icons are visa, mastercard, american express, discover, elo; unknown falls back to visa. */
export function cardBrandIcon(brand: string | null | undefined): CardBrand {
  const b = (brand ?? '').toLowerCase().replace(/_/g, ' ');
  if (b === 'amex') return 'american express';
  return (CARD_BRANDS as readonly string[]).includes(b) ? (b as CardBrand) : 'visa';
}
