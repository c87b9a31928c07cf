import type { SuggestedAddress } from '@ampere/domain/contract/account';
import { type AddressProvider, MAX_SUGGESTIONS, type SuggestInput } from './schema.ts';

interface Street {
  name: string;
  zip: string;
}
interface City {
  city: string;
  state: string;
  streets: Street[];
}

/**
 * Real streets of the six cities we rent in (spec 2 home cities), each with the ZIP code of its
 * stretch near downtown. Enough for believable suggestions offline; Smarty replaces it when configured.
 */
const CITIES: City[] = [
  {
    city: 'Nashville',
    state: 'TN',
    streets: [
      { name: 'Broadway', zip: '37203' },
      { name: 'Church St', zip: '37219' },
      { name: 'Charlotte Ave', zip: '37203' },
      { name: 'West End Ave', zip: '37203' },
      { name: 'Demonbreun St', zip: '37203' },
      { name: 'Commerce St', zip: '37201' },
      { name: '12th Ave S', zip: '37203' },
      { name: 'Belmont Blvd', zip: '37212' },
      { name: 'Gallatin Pike', zip: '37206' },
      { name: 'Woodland St', zip: '37206' },
      { name: 'Hillsboro Pike', zip: '37215' },
      { name: 'Nolensville Pike', zip: '37211' },
      { name: 'Main St', zip: '37206' },
    ],
  },
  {
    city: 'St Louis',
    state: 'MO',
    streets: [
      { name: 'Washington Ave', zip: '63101' },
      { name: 'Market St', zip: '63101' },
      { name: 'Olive St', zip: '63101' },
      { name: 'Lindell Blvd', zip: '63108' },
      { name: 'Delmar Blvd', zip: '63112' },
      { name: 'S Grand Blvd', zip: '63118' },
      { name: 'S Kingshighway Blvd', zip: '63110' },
      { name: 'Manchester Ave', zip: '63110' },
      { name: 'Chouteau Ave', zip: '63103' },
      { name: 'N Tucker Blvd', zip: '63101' },
      { name: 'Euclid Ave', zip: '63108' },
      { name: 'Arsenal St', zip: '63118' },
    ],
  },
  {
    city: 'Dallas',
    state: 'TX',
    streets: [
      { name: 'Main St', zip: '75202' },
      { name: 'Elm St', zip: '75201' },
      { name: 'Commerce St', zip: '75202' },
      { name: 'Ross Ave', zip: '75201' },
      { name: 'McKinney Ave', zip: '75204' },
      { name: 'Greenville Ave', zip: '75206' },
      { name: 'Lemmon Ave', zip: '75219' },
      { name: 'Oak Lawn Ave', zip: '75219' },
      { name: 'Swiss Ave', zip: '75204' },
      { name: 'Gaston Ave', zip: '75214' },
      { name: 'Henderson Ave', zip: '75206' },
      { name: 'Maple Ave', zip: '75219' },
    ],
  },
  {
    city: 'Austin',
    state: 'TX',
    streets: [
      { name: 'Congress Ave', zip: '78701' },
      { name: 'E 6th St', zip: '78701' },
      { name: 'N Lamar Blvd', zip: '78703' },
      { name: 'Guadalupe St', zip: '78705' },
      { name: 'S Congress Ave', zip: '78704' },
      { name: 'W Cesar Chavez St', zip: '78701' },
      { name: 'Burnet Rd', zip: '78757' },
      { name: 'Barton Springs Rd', zip: '78704' },
      { name: 'Red River St', zip: '78701' },
      { name: 'Manor Rd', zip: '78722' },
      { name: 'Airport Blvd', zip: '78722' },
      { name: 'Rainey St', zip: '78701' },
    ],
  },
  {
    city: 'Phoenix',
    state: 'AZ',
    streets: [
      { name: 'N Central Ave', zip: '85004' },
      { name: 'E Washington St', zip: '85004' },
      { name: 'W Jefferson St', zip: '85003' },
      { name: 'E Camelback Rd', zip: '85016' },
      { name: 'E Indian School Rd', zip: '85018' },
      { name: 'E Thomas Rd', zip: '85006' },
      { name: 'E McDowell Rd', zip: '85006' },
      { name: 'E Roosevelt St', zip: '85004' },
      { name: 'N 7th St', zip: '85006' },
      { name: 'E Van Buren St', zip: '85004' },
      { name: 'N 16th St', zip: '85016' },
      { name: 'W Osborn Rd', zip: '85013' },
    ],
  },
  {
    city: 'Las Vegas',
    state: 'NV',
    streets: [
      { name: 'Las Vegas Blvd S', zip: '89109' },
      { name: 'Fremont St', zip: '89101' },
      { name: 'E Flamingo Rd', zip: '89169' },
      { name: 'E Tropicana Ave', zip: '89119' },
      { name: 'E Sahara Ave', zip: '89104' },
      { name: 'E Charleston Blvd', zip: '89104' },
      { name: 'Paradise Rd', zip: '89169' },
      { name: 'S Maryland Pkwy', zip: '89119' },
      { name: 'W Desert Inn Rd', zip: '89109' },
      { name: 'Spring Mountain Rd', zip: '89102' },
      { name: 'S Eastern Ave', zip: '89104' },
      { name: 'S Decatur Blvd', zip: '89107' },
    ],
  },
];

/** Abbreviations renters type either way round. */
const SYNONYMS: Record<string, string> = {
  street: 'st',
  avenue: 'ave',
  boulevard: 'blvd',
  road: 'rd',
  parkway: 'pkwy',
  place: 'pl',
  drive: 'dr',
  north: 'n',
  south: 's',
  east: 'e',
  west: 'w',
  saint: 'st',
};
const canon = (word: string) => SYNONYMS[word] ?? word;
const words = (text: string) => text.toLowerCase().replace(/[.,#]/g, ' ').split(/\s+/).filter(Boolean).map(canon);

/** A stable house number for a street (100–2999 by the street's name), when none was typed. */
function houseNumberFor(street: string, city: string): number {
  let h = 0;
  for (const c of `${street}|${city}`) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return 100 + (h % 2900);
}

/**
 * Built-in suggestions: the leading house number (if typed) and the words after it are matched
 * against each street, city, state and ZIP (every word must start a word there), in the included
 * states only (when any are given); streets whose name matches come before city-only matches,
 * preferred states first.
 */
export function builtinSuggestions({ search, preferStates, includeStates }: SuggestInput): SuggestedAddress[] {
  const m = /^\s*(\d{1,6})(?:\s+|$)(.*)$/.exec(search);
  const number = m ? m[1]! : null;
  const query = words(m ? m[2]! : search);
  const scored: { s: SuggestedAddress; rank: number }[] = [];
  CITIES.forEach((c, cityIndex) => {
    if (includeStates.length > 0 && !includeStates.includes(c.state)) return;
    const cityWords = [...words(c.city), c.state.toLowerCase()];
    for (const street of c.streets) {
      const streetWords = words(street.name);
      const haystack = [...streetWords, ...cityWords, street.zip];
      if (!query.every((q) => haystack.some((w) => w.startsWith(q)))) continue;
      const streetHit = query.length === 0 || query.some((q) => streetWords.some((w) => w.startsWith(q)));
      const preferred = preferStates.indexOf(c.state);
      const rank = (preferred === -1 ? preferStates.length : preferred) * 1000 + (streetHit ? 0 : 500) + cityIndex * 20;
      const house = number ?? String(houseNumberFor(street.name, c.city));
      scored.push({
        s: { street_line: `${house} ${street.name}`, secondary: '', city: c.city, state: c.state, zipcode: street.zip },
        rank,
      });
    }
  });
  // Stable sort keeps each city's streets in their listed order within a rank.
  return scored
    .sort((a, b) => a.rank - b.rank)
    .slice(0, MAX_SUGGESTIONS)
    .map((x) => x.s);
}

export const builtinAddressProvider: AddressProvider = {
  kind: 'builtin',
  suggest: (input) => Promise.resolve(builtinSuggestions(input)),
};
