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
  locations: '/locations',
  location: (locationId: string) => `/locations/${encodeURIComponent(locationId)}`,
  staff: '/staff',
  audit: '/audit',
  disputes: '/disputes',
  deposits: '/deposits',
  tolls: '/tolls',
} as const;

/** The router's patterns of the pages above that take an id. */
export const routePatterns = {
  trip: '/trips/:tripId',
  location: '/locations/:locationId',
} as const;
