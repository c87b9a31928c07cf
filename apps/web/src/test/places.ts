/**
 * The places the search bar's fake API offers: three cities in its list, and the server's
 * suggestions as the renter types ('aus' adds Austin's airport).
 */
import { fakeApi, ok } from './fake-api.ts';
import { aPlace } from './fixtures.ts';

export const NASHVILLE = aPlace({ id: 7, query: 'Nashville, TN' });
export const DALLAS = aPlace({ id: 8, query: 'Dallas, TX', latitude: 32.78, longitude: -96.8, region_id: 4 });
export const AUSTIN = aPlace({ id: 9, query: 'Austin, TX', latitude: 30.27, longitude: -97.74, region_id: 5 });
export const AUSTIN_AIRPORT = aPlace({
  id: 21,
  query: 'Austin-Bergstrom International Airport',
  type: 'AIRPORT',
  latitude: 30.19,
  longitude: -97.67,
  region_id: 5,
});

export function placesApi() {
  return fakeApi()
    .on('GET /api/v1/search/cities', ok({ options: [NASHVILLE, DALLAS, AUSTIN] }))
    .on('GET /api/v1/search/autocomplete', ({ query }) =>
      ok({ options: query.get('query')!.toLowerCase().startsWith('aus') ? [AUSTIN, AUSTIN_AIRPORT] : [] }),
    )
    .on('GET /api/v1/search/landmarks-near/:id', ok({ options: [] }));
}
