/** Every route path in one place: links, redirects and tests use these. */
export const paths = {
  home: () => '/',
  search: (query?: Record<string, string | undefined | null>) => withQuery('/search', query),
  vehicle: (vin: string, query?: Record<string, string | undefined | null>) =>
    withQuery(`/vehicle/${encodeURIComponent(vin)}`, query),
  /** Sign-in; `redirect` is a path to return to, or 'create-booking' with the booking details in `query`. */
  login: (redirect?: string, query?: Record<string, string | undefined | null>) =>
    withQuery('/login', { redirect, ...query }),
  logout: () => '/logout',
  profile: () => '/profile',
  trips: () => '/trips',
  onboarding: {
    start: () => '/onboarding',
    insurance: () => '/onboarding/insurance/verification',
    license: () => '/onboarding/license/verification',
  },
  createBooking: (query: Record<string, string | undefined | null>) => withQuery('/create-booking', query),
  trip: {
    detail: (id: string) => `/trip/${encodeURIComponent(id)}`,
    damageWaiver: (id: string) => `/trip/${encodeURIComponent(id)}/damage-waiver`,
    signature: (id: string) => `/trip/${encodeURIComponent(id)}/signature`,
    pay: (id: string) => `/trip/${encodeURIComponent(id)}/pay`,
    confirmation: (id: string) => `/trip/${encodeURIComponent(id)}/confirmation`,
    receipt: (id: string) => `/trip/${encodeURIComponent(id)}/receipt`,
    extension: (id: string) => `/trip/${encodeURIComponent(id)}/extension`,
    extensionConfirmed: (id: string) => `/trip/${encodeURIComponent(id)}/extension/confirmed`,
    return: (id: string) => `/trip/${encodeURIComponent(id)}/return`,
  },
  /** The digital key page (public: the token is the capability). */
  key: (token: string) => `/key/${encodeURIComponent(token)}`,
  /** The Collision Protection waiver terms (public), with query state, price_per_day, total_price (dollars). */
  waiverContract: (query?: Record<string, string | undefined | null>) => withQuery('/waiver-contract', query),
  /** The rental agreement terms (public). */
  rentalAgreement: () => '/rental-agreement',
  /** A shared receipt (public: the token is the capability). */
  sharedReceipt: (token: string) => withQuery('/receipt', { token }),
  /** What the receipts' charges follow: deposit, cancellation, fees (public). */
  policies: () => '/policies',
  forbidden: () => '/forbidden',
  error: () => '/error',
} as const;

/** Adds a query string, leaving out empty values (spec: empty values removed). */
export function withQuery(path: string, query?: Record<string, string | undefined | null>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, v);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
