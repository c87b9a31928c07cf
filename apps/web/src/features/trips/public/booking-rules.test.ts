import { describe, expect, it } from 'vitest';
import type { Transaction } from '@ampere/domain/contract/booking';
import {
  damageWaiverPending,
  freeCancellationUntil,
  hasDamageWaiverOn,
  pendingAddonIds,
  pendingTotalCents,
  signaturesMissing,
  tripTotalCents,
} from './booking-rules.ts';

type Tx = Pick<
  Transaction,
  'category' | 'status' | 'amount' | 'discount_amount' | 'addon' | 'effective_date' | 'description' | 'number_of_days'
>;
const tx = (over: Partial<Tx>): Tx => ({
  category: 'Rack',
  status: 'Pending',
  amount: 10_000,
  discount_amount: 0,
  addon: null,
  effective_date: null,
  description: '',
  number_of_days: 1,
  ...over,
});
const waiver = (status: Tx['status'] = 'Pending') =>
  tx({
    category: 'Addon',
    status,
    amount: 2_500,
    addon: { id: 'collision-protection', type: 'DAMAGE_WAIVER', amount: 2_500 },
  });
const trip = (
  transactions: Tx[],
  over: Partial<{
    status: 'Started' | 'Pending' | 'On Rent' | 'Returned' | 'Canceled';
    agreements: { type: string }[];
  }> = {},
) => ({
  status: 'Pending' as const,
  pickup_at: '2026-12-10T16:00:00Z', // 10:00 in Chicago
  return_at: '2026-12-17T16:00:00Z',
  timezone: 'America/Chicago',
  agreements: [] as { type: string }[],
  transactions,
  ...over,
});

describe('booking rules', () => {
  it('navbar total: non-deposit line items net of discounts, leaving out canceled and failed ones', () => {
    const r = trip([
      tx({ amount: 70_000, discount_amount: 7_000 }),
      waiver(),
      tx({ category: 'Deposit', amount: 20_000 }),
      tx({ category: 'Tax', amount: 5_000, status: 'Successful' }),
      tx({ amount: 999, status: 'Canceled' }),
    ]);
    expect(tripTotalCents(r)).toBe(70_000 - 7_000 + 2_500 + 5_000);
  });

  it('pending charges: the non-deposit items still Pending, net of discounts', () => {
    expect(
      pendingTotalCents(
        trip([tx({ amount: 1_000, discount_amount: 100 }), tx({ category: 'Deposit' }), tx({ status: 'Successful' })]),
      ),
    ).toBe(900);
  });

  it('collision protection: on when the trip says so or a live damage-waiver line item exists; pending only while unpaid', () => {
    expect(hasDamageWaiverOn({ ...trip([waiver()]), damage_waiver: false })).toBe(true);
    expect(hasDamageWaiverOn({ ...trip([waiver('Canceled')]), damage_waiver: false })).toBe(false);
    expect(hasDamageWaiverOn({ ...trip([]), damage_waiver: true })).toBe(true);
    expect(damageWaiverPending(trip([waiver('Successful')]))).toBe(false);
    expect(damageWaiverPending(trip([waiver()]))).toBe(true);
  });

  it('free cancellation: the server’s deadline read on the pickup place’s clock, whatever the browser’s zone', () => {
    const chicago = { timezone: 'America/Chicago' } as Parameters<typeof freeCancellationUntil>[0]['pickup_location'];
    // The day before a 10:00 AM CDT pickup on 2026-03-08 (the spring-forward day): 10:00 AM CST on Mar 7.
    expect(
      freeCancellationUntil({ free_cancellation_until: '2026-03-07T16:00:00Z', pickup_location: chicago }),
    ).toMatch(/Mar 7, 2026, 10:00 AM/);
    expect(
      freeCancellationUntil({ free_cancellation_until: '2026-12-09T16:00:00Z', pickup_location: chicago }),
    ).toMatch(/Dec 9, 2026, 10:00 AM/);
  });

  it('signatures: missing until the rental agreement, and the waiver when collision protection is on, are signed', () => {
    expect(signaturesMissing(trip([tx({})]))).toBe(true);
    expect(signaturesMissing(trip([tx({})], { agreements: [{ type: 'RENTAL_AGREEMENT' }] }))).toBe(false);
    expect(signaturesMissing(trip([waiver()], { agreements: [{ type: 'RENTAL_AGREEMENT' }] }))).toBe(true);
  });

  it('PATCH addons sends the pending add-on ids once each', () => {
    const unlimited = { id: 'unlimited-miles', type: 'UNLIMITED_MILES' as const, amount: 1_000 };
    expect(
      pendingAddonIds(trip([tx({ addon: unlimited }), tx({ addon: unlimited }), waiver('Successful'), tx({})])),
    ).toEqual(['unlimited-miles']);
  });
});
