/** Business constants from the product specification, section 9. */
export const PRODUCT_NAME = 'Ampere';
export const DEFAULT_MIN_RESERVATION_BUFFER_HOURS = 4;
export const DEFAULT_RENTAL_DAYS = 7;
/** Spec 5, 9: the booking card with no times set counts at least this many days. */
export const MIN_DAYS_WITHOUT_TIMES = 7;
export const DATE_RANGE_LIMIT_DAYS = 28;
export const MAX_PICKUP_DAYS_AHEAD = 365;
export const TIME_STEP_MINUTES = 15;
/**
 * Decision 015: a car is held this long after each return (cleaned and charged) before its next
 * pickup. The database enforces it through reservations.blocked_until.
 */
export const TURNAROUND_MINUTES = 60;
export const DEFAULT_RETURN_TIME = '10:00';
export const INCLUDED_MILES_PER_DAY = 200;
export const SECURITY_DEPOSIT_CENTS = 20_000;
export const MINIMUM_RENTER_AGE = 18;
export const UNDERAGE_RENTER_AGE = 25;
/** Decision 012: a renter under 25 at pickup pays this per rental day ('Underage User Fee', taxed like the rental). */
export const UNDERAGE_FEE_CENTS_PER_DAY = 2_500;
/** Spec 9: cancellation is free until this many calendar days before pickup, on the pickup place's clock (booking.ts `freeCancellationDeadline`). */
export const FREE_CANCELLATION_DAYS = 1;
/** An unpaid (Started) booking holds its car this long, then lapses (decision 025). */
export const UNPAID_HOLD_MINUTES = 30;
/** How many unpaid bookings one renter may hold at once (decision 025). */
export const MAX_UNPAID_HOLDS = 3;
export const AUTOCOMPLETE_LIMIT = 5;
export const LOCATIONS_PAGE_SIZE = 10;
export const VEHICLE_LOCATION_SEARCH_LIMIT = 10;
export const MAP_ZOOM = 9;
export const MAP_MAX_ZOOM = 18;
export const MAP_LIST_FILTER_DELAY_MS = 300;
export const BLUR_DELAY_MS = 100;
export const TOAST_DURATION_MS = 5000;
export const WIDE_LAYOUT_MIN_PX = 768;
export const HOME_CITIES = [
  'Nashville, TN',
  'St Louis, MO',
  'Dallas, TX',
  'Austin, TX',
  'Phoenix, AZ',
  'Las Vegas, NV',
] as const;
export const SEARCH_OPTION_TYPES = ['CITY', 'AIRPORT', 'LANDMARK', 'LOT', 'ZIP_CODE', 'STATE'] as const;
export type SearchOptionType = (typeof SEARCH_OPTION_TYPES)[number];
export const COLORS = ['BLACK', 'GREY', 'WHITE', 'RED', 'BLUE'] as const;
export type Color = (typeof COLORS)[number];
export const BASE_MODELS = ['Model 3', 'Model Y', 'Model S', 'Model X'] as const;
export const LONG_RANGE_SUFFIX = ' Long Range';
export const ADDON_TYPES = ['DAMAGE_WAIVER', 'UNLIMITED_MILES', 'PREPAID_EV_CHARGING'] as const;
export type AddonType = (typeof ADDON_TYPES)[number];
export const ADDON_LABELS: Record<AddonType, string> = {
  DAMAGE_WAIVER: 'Collision Protection',
  UNLIMITED_MILES: 'Unlimited Miles',
  PREPAID_EV_CHARGING: 'Prepaid Charging',
};
/** Spec 3 'Image views', in the gallery's order: MONEYSHOT is the main photo. */
export const IMAGE_VIEWS = [
  'MONEYSHOT',
  'FRONT',
  'L_SIDE',
  'RR_CORNER',
  'REAR',
  'R_SIDE',
  'DASH',
  'RF_INTERIOR',
  'HEADLIGHT',
  'WHEEL',
  'TAILLIGHT',
] as const;
export type ImageView = (typeof IMAGE_VIEWS)[number];
/** Reservation statuses that hold the car; the exclusion constraint applies to these. */
export const ACTIVE_RESERVATION_STATUSES = ['Started', 'Pending', 'On Rent'] as const;
export const RESERVATION_STATUSES = ['Started', 'Pending', 'On Rent', 'Returned', 'Canceled'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];
/**
 * An open trip: paid and not over, upcoming (Pending) or running (On Rent). Only an open trip's
 * dates can change (decision 027) and only an open trip has a key (spec 4); see booking.ts `isOpenTrip`.
 */
/**
 * Why a trip was cancelled (decision 053): its renter cancelled it, its unpaid hold lapsed after
 * UNPAID_HOLD_MINUTES, or a newer booking of the same car by the same renter replaced it (decision 012).
 */
export const CANCEL_REASONS = ['renter', 'hold_expired', 'replaced'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
