import type { Reservation } from '@ampere/domain/contract/booking';
import { formatTotal } from '@ampere/domain/money';
import { formatDecimal, parseDecimal } from '@ampere/domain/money-decimal';
import { addonTotal } from '@ampere/domain/line-items';
import { rentalDaysBetween } from '@ampere/domain/rental';

/** A waiver's price per day and total for a trip of these rental days, as the contract page's query carries them. */
export function waiverPrices(
  waiver: { amount: number; frequency: 'DAY' | 'ONE_TIME' },
  days: number,
): { price_per_day: string; total_price: string } {
  return { price_per_day: formatDecimal(waiver.amount), total_price: formatDecimal(addonTotal(waiver, days)) };
}

/**
 * The waiver contract page's query (spec 2: state, price_per_day, total_price) for a trip: the
 * pickup state, and the waiver's daily price and total when the trip has it. The total is the one
 * the signed waiver states: the daily price times the trip's rental days.
 */
export function waiverContractQuery(
  r: Pick<Reservation, 'pickup_location' | 'transactions' | 'pickup_at' | 'return_at' | 'timezone'>,
): Record<string, string | null> {
  const line = r.transactions.find(
    (t) => t.addon?.type === 'DAMAGE_WAIVER' && t.status !== 'Canceled' && t.status !== 'Failed',
  );
  const days = rentalDaysBetween(new Date(r.pickup_at), new Date(r.return_at), r.timezone);
  const prices = line?.addon ? waiverPrices({ amount: line.addon.amount, frequency: 'DAY' }, days) : null;
  return {
    state: r.pickup_location.state,
    price_per_day: prices?.price_per_day ?? null,
    total_price: prices?.total_price ?? null,
  };
}

/** '25.00' → '$25.00'; anything that is not an amount → null. */
export function readDollars(value: string | null): string | null {
  const cents = parseDecimal(value);
  return cents === null ? null : formatTotal(cents);
}
