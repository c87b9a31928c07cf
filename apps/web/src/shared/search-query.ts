/**
 * The search state as it travels in the query string (spec 2, /search): searchQuery (location id),
 * pickupDate, returnDate, pickupTime, returnTime, model, color; home shortcuts use city='City, ST'.
 * Cards carry it to /vehicle/{vin} and the vehicle page's Search button brings it back.
 */
export interface SearchQuery {
  searchQuery?: string;
  pickupDate?: string;
  returnDate?: string;
  pickupTime?: string;
  returnTime?: string;
  model?: string;
  color?: string;
  city?: string;
}

export const SEARCH_QUERY_KEYS = [
  'searchQuery',
  'pickupDate',
  'returnDate',
  'pickupTime',
  'returnTime',
  'model',
  'color',
  'city',
] as const;

export function readSearchQuery(params: URLSearchParams): SearchQuery {
  const q: SearchQuery = {};
  for (const key of SEARCH_QUERY_KEYS) {
    const v = params.get(key);
    if (v) q[key] = v;
  }
  return q;
}

/** A record for paths.search()/paths.vehicle(): empty values are left out. */
export function searchQueryRecord(q: SearchQuery): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of SEARCH_QUERY_KEYS) if (q[key]) out[key] = q[key];
  return out;
}
