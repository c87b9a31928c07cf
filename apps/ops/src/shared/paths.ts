/** The console's pages, under its base (/ops). */
export const paths = {
  signIn: '/sign-in',
  today: '/',
  fleet: '/fleet',
  fleetNew: '/fleet/new',
  fleetImport: '/fleet/import',
  fleetCar: (carId: number | string) => `/fleet/${carId}`,
  lookup: '/lookup',
  locations: '/locations',
  staff: '/staff',
  audit: '/audit',
} as const;
