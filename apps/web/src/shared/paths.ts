import { PAGE_PATTERNS } from '@ampere/domain/pages';
import { href } from './router/core.ts';

/**
 * Every page's address pattern, in one place (the domain's, so the server answers 404 for any other
 * address): the route table (app/router.tsx) matches these, `paths` fills them in, and a page reads
 * its address's parameters by them (`useParams(patterns.trip.detail)` is `{ id: string }`, typed from
 * the pattern's text).
 */
export const patterns = PAGE_PATTERNS;

type Query = Record<string, string | undefined | null>;

/** A trip's page, by the trip's platform id. */
const tripPage = (pattern: (typeof patterns.trip)[Exclude<keyof typeof patterns.trip, 'charge'>]) => (id: string) =>
  href(pattern, { id });

/** Every page's address, its pattern filled in: links, redirects and tests use these. */
export const paths = {
  home: () => patterns.home,
  search: (query?: Query) => withQuery(patterns.search, query),
  vehicle: (vin: string, query?: Query) => withQuery(href(patterns.vehicle, { vin }), query),
  /** Sign-in; `redirect` is a path to return to, or 'create-booking' with the booking details in `query`. */
  login: (redirect?: string, query?: Query) => withQuery(patterns.login, { redirect, ...query }),
  logout: () => patterns.logout,
  profile: () => patterns.profile,
  trips: () => patterns.trips,
  onboarding: {
    start: () => patterns.onboarding.start,
    insurance: () => patterns.onboarding.insurance,
    license: () => patterns.onboarding.license,
  },
  createBooking: (query: Query) => withQuery(patterns.createBooking, query),
  trip: {
    detail: tripPage(patterns.trip.detail),
    damageWaiver: tripPage(patterns.trip.damageWaiver),
    signature: tripPage(patterns.trip.signature),
    pay: tripPage(patterns.trip.pay),
    confirmation: tripPage(patterns.trip.confirmation),
    receipt: tripPage(patterns.trip.receipt),
    extension: tripPage(patterns.trip.extension),
    extensionConfirmed: tripPage(patterns.trip.extensionConfirmed),
    return: tripPage(patterns.trip.return),
    /** A charge after the trip, with its evidence and the dispute form. */
    charge: (id: string, chargeId: string) => href(patterns.trip.charge, { id, chargeId }),
  },
  /** The digital key page (public: the token is the capability). */
  key: (token: string) => href(patterns.key, { token }),
  /** The Collision Protection waiver terms (public), with query state, price_per_day, total_price (dollars). */
  waiverContract: (query?: Query) => withQuery(patterns.waiverContract, query),
  /** The rental agreement terms (public). */
  rentalAgreement: () => patterns.rentalAgreement,
  /** A shared receipt (public: the token is the capability). */
  sharedReceipt: (token: string) => withQuery(patterns.sharedReceipt, { token }),
  /** What the receipts' charges follow: deposit, cancellation, fees (public). */
  policies: () => patterns.policies,
  forbidden: () => patterns.forbidden,
  error: () => patterns.error,
} as const;

/** Adds a query string, leaving out empty values (spec: empty values removed). */
export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, v);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
