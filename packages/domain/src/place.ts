// Apart from format.ts, which the search page's first download carries.
/**
 * Rule: a place's address on one line, as every page and document writes it:
 * '501 Broadway, Nashville, TN 37203'.
 */
export function addressLine(place: { street: string; city: string; state: string; zip_code: string }): string {
  return `${place.street}, ${place.city}, ${place.state} ${place.zip_code}`;
}
