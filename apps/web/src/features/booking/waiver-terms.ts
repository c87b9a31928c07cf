import type { Reservation } from '@ampere/domain/contract/booking';

const dollars = (cents: number) => (cents / 100).toFixed(2);

/**
 * The waiver contract page's query (spec 2: state, price_per_day, total_price) for a trip: the
 * pickup state, and the waiver's daily price and total when the trip has it.
 */
export function waiverContractQuery(
  r: Pick<Reservation, 'pickup_location' | 'transactions'>,
): Record<string, string | null> {
  const items = r.transactions.filter(
    (t) => t.addon?.type === 'DAMAGE_WAIVER' && t.status !== 'Canceled' && t.status !== 'Failed',
  );
  const perDay = items[0]?.addon?.amount ?? null;
  const total = items.reduce((sum, t) => sum + t.amount, 0);
  return {
    state: r.pickup_location.state,
    price_per_day: perDay === null ? null : dollars(perDay),
    total_price: items.length ? dollars(total) : null,
  };
}

/** '25.00' → '$25.00'; anything that is not an amount → null. */
export function readDollars(value: string | null): string | null {
  if (!value || !/^\d{1,7}(\.\d{1,2})?$/.test(value)) return null;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(value));
}
