/** The console's pages, under its base (/ops). */
export const paths = {
  signIn: '/sign-in',
  today: '/',
  fleet: '/fleet',
  lookup: '/lookup',
  locations: '/locations',
  staff: '/staff',
  audit: '/audit',
} as const;
