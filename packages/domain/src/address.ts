import { HOME_CITIES } from './constants.ts';

// Where renters' home addresses may be: apart from constants.ts, so the search page's first download does not carry the list.

/** Spec 7: address suggestions prefer the states of known cities, the ones we rent in. */
export const OPERATING_STATES = [...new Set(HOME_CITIES.map((c) => c.slice(-2)))];
/**
 * The 50 states and DC (USPS codes): where a renter's home address may be, so address suggestions
 * include only these (decision 033: renters fly in from anywhere in the country, so not only our states).
 */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
] as const;
/** The five inhabited US territories. */
export const US_INHABITED_TERRITORIES = ['AS', 'GU', 'MP', 'PR', 'VI'] as const;
/** The other USPS state codes: territories and military post offices. */
export const USPS_OTHER_STATE_CODES = [...US_INHABITED_TERRITORIES, 'UM', 'AA', 'AE', 'AP'] as const;
