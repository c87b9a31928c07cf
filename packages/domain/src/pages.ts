/**
 * Every page of the web app, by its address pattern (spec 2's route table): `:name` is one segment
 * of the address, `*` any other address (the not-found page). The web app's router matches these,
 * and the server answers HTTP 404 for an address none of them matches.
 */
export const PAGE_PATTERNS = {
  home: '/',
  search: '/search',
  vehicle: '/vehicle/:vin',
  login: '/login',
  logout: '/logout',
  profile: '/profile',
  trips: '/trips',
  onboarding: {
    start: '/onboarding',
    insurance: '/onboarding/insurance/verification',
    license: '/onboarding/license/verification',
  },
  createBooking: '/create-booking',
  trip: {
    detail: '/trip/:id',
    damageWaiver: '/trip/:id/damage-waiver',
    signature: '/trip/:id/signature',
    pay: '/trip/:id/pay',
    confirmation: '/trip/:id/confirmation',
    receipt: '/trip/:id/receipt',
    extension: '/trip/:id/extension',
    extensionConfirmed: '/trip/:id/extension/confirmed',
    return: '/trip/:id/return',
    /** A charge posted after the trip (issue 30 §2): the link in its text and email. */
    charge: '/trip/:id/charges/:chargeId',
  },
  key: '/key/:token',
  waiverContract: '/waiver-contract',
  rentalAgreement: '/rental-agreement',
  sharedReceipt: '/receipt',
  policies: '/policies',
  forbidden: '/forbidden',
  error: '/error',
  /** Any other address: the not-found page. */
  notFound: '*',
} as const;

function allPatterns(node: unknown): string[] {
  return typeof node === 'string' ? [node] : Object.values(node as object).flatMap(allPatterns);
}

/** The page patterns as segment lists, the catch-all left out. */
const MATCHERS = allPatterns(PAGE_PATTERNS)
  .filter((p) => p !== '*')
  .map((p) => p.split('/').filter(Boolean));

/**
 * Whether an address (its path, without the query) is one of the app's pages, as the router matches
 * them: each segment equal whatever its letter case, or any one segment for a `:name`; trailing
 * slashes allowed.
 */
export function isPagePath(pathname: string): boolean {
  const trimmed = pathname.replace(/\/+$/, '');
  if (trimmed.includes('//')) return false;
  const segments = trimmed.split('/').filter(Boolean);
  return MATCHERS.some(
    (m) =>
      m.length === segments.length &&
      m.every((part, i) => part.startsWith(':') || part.toLowerCase() === segments[i]!.toLowerCase()),
  );
}
