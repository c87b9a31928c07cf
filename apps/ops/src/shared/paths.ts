/** The console's pages, under its base (/ops). */
export const paths = {
  signIn: '/sign-in',
  home: '/',
  today: '/today',
  fleet: '/fleet',
  fleetNew: '/fleet/new',
  fleetImport: '/fleet/import',
  fleetCar: (carId: number | string) => `/fleet/${carId}`,
  lookup: '/lookup',
  trip: (tripId: string) => `/trips/${encodeURIComponent(tripId)}`,
  inspection: (tripId: string, stage: string) => `/trips/${encodeURIComponent(tripId)}/inspections/${stage}`,
  locations: '/locations',
  location: (locationId: string) => `/locations/${encodeURIComponent(locationId)}`,
  staff: '/staff',
  audit: '/audit',
  review: '/review',
  doNotRent: '/do-not-rent',
  renter: (renterId: string) => `/renters/${encodeURIComponent(renterId)}`,
  disputes: '/disputes',
  deposits: '/deposits',
  tolls: '/tolls',
} as const;

/** The router's patterns of the pages above that take an id. */
export const routePatterns = {
  trip: '/trips/:tripId',
  inspection: '/trips/:tripId/inspections/:stage',
  location: '/locations/:locationId',
  renter: '/renters/:renterId',
} as const;
