import { describe, expect, it } from 'vitest';
import { type SummaryTransaction, returnSummary, shownReturn } from './return-summary.ts';

const row = (t: Partial<SummaryTransaction> & Pick<SummaryTransaction, 'category' | 'status'>): SummaryTransaction => ({
  description: t.category,
  amount: 0,
  captured_amount: 0,
  discount_amount: 0,
  initiated_at: '2026-12-03T15:00:00Z',
  released_at: null,
  card_last_4: null,
  stripe_reserve_applied_payment_intent_id: null,
  ...t,
});
const rental = row({ category: 'Rack', status: 'Successful', amount: 9_900, captured_amount: 9_900 });
const heldDeposit = row({ category: 'Deposit', status: 'Pending', amount: 20_000, card_last_4: '4242' });

describe('what ending a trip did (decision 054)', () => {
  it('no fees: the whole hold released, nothing to pay', () => {
    const released = { ...heldDeposit, status: 'Canceled', released_at: '2026-12-03T15:05:00Z' };
    expect(returnSummary([rental, released])).toEqual({
      fees: [],
      total: 0,
      deposit: { held: 20_000, kept: 0, released: 20_000, settledAt: '2026-12-03T15:05:00Z', cardLast4: '4242' },
      due: 0,
      waived: 0,
    });
  });

  it('fees kept from the deposit: each dated when the hold was captured, the rest released', () => {
    const captured = {
      ...heldDeposit,
      status: 'Captured',
      captured_amount: 6_250,
      released_at: '2026-12-03T15:05:00Z',
    };
    const fee = (description: string, amount: number) =>
      row({
        category: 'Incidental',
        status: 'Successful',
        description,
        amount,
        captured_amount: amount,
        stripe_reserve_applied_payment_intent_id: 'pi_hold',
      });
    // Read in another order than the return charges them: shown in the return's order.
    const s = returnSummary([
      rental,
      fee('Mileage Overage (50 mi)', 1_750),
      captured,
      fee('Recharge Fee (0–20%)', 4_500),
    ]);
    expect(s.fees.map((f) => [f.description, f.amount, f.source, f.takenAt, f.cardLast4])).toEqual([
      ['Recharge Fee (0–20%)', 4_500, 'deposit', '2026-12-03T15:05:00Z', '4242'],
      ['Mileage Overage (50 mi)', 1_750, 'deposit', '2026-12-03T15:05:00Z', '4242'],
    ]);
    expect(s.total).toBe(6_250);
    expect(s.deposit).toMatchObject({ held: 20_000, kept: 6_250, released: 13_750 });
    expect(s.due).toBe(0);
  });

  it('fees beyond the deposit: the hold kept whole, the rest of a split fee owed until paid by card', () => {
    const captured = {
      ...heldDeposit,
      status: 'Captured',
      captured_amount: 20_000,
      released_at: '2026-12-03T15:05:00Z',
    };
    const kept = row({
      category: 'Incidental',
      status: 'Successful',
      description: 'Mileage Overage (600 mi)',
      amount: 20_000,
      captured_amount: 20_000,
      stripe_reserve_applied_payment_intent_id: 'pi_hold',
    });
    const owed = row({
      category: 'Incidental',
      status: 'Pending',
      description: 'Mileage Overage (600 mi)',
      amount: 1_000,
    });
    const before = returnSummary([rental, owed, captured, kept]);
    expect(before.fees.map((f) => f.source)).toEqual(['deposit', 'due']);
    expect(before).toMatchObject({ total: 21_000, due: 1_000, deposit: { kept: 20_000, released: 0 } });
    const paid = { ...owed, status: 'Successful', captured_amount: 1_000, card_last_4: '1881' };
    const after = returnSummary([rental, captured, kept, paid]);
    expect(after.fees[1]).toMatchObject({ source: 'card', cardLast4: '1881' });
    expect(after.due).toBe(0);
  });

  it('fees beyond the deposit by under 50 cents: the hold kept whole, the rest waived, nothing owed (decision 056)', () => {
    const captured = {
      ...heldDeposit,
      status: 'Captured',
      captured_amount: 20_000,
      released_at: '2026-12-03T15:05:00Z',
    };
    const fee = (amount: number, fromHold: boolean) =>
      row({
        category: 'Incidental',
        status: 'Successful',
        description: 'Mileage Overage (443 mi)',
        amount,
        captured_amount: fromHold ? amount : 0,
        discount_amount: fromHold ? 0 : amount,
        stripe_reserve_applied_payment_intent_id: fromHold ? 'pi_hold' : null,
      });
    const s = returnSummary([rental, fee(5, false), captured, fee(20_000, true)]);
    expect(s.fees.map((f) => [f.amount, f.source, f.waived])).toEqual([
      [20_000, 'deposit', 0],
      [0, 'waived', 5],
    ]);
    expect(s).toMatchObject({ total: 20_000, due: 0, waived: 5, deposit: { kept: 20_000, released: 0 } });
  });

  it('a hold not settled yet: the fees are marked for the deposit but not dated, nothing released yet', () => {
    const fee = row({
      category: 'Incidental',
      status: 'Pending',
      description: 'Late Return Fee',
      amount: 2_500,
      stripe_reserve_applied_payment_intent_id: 'pi_hold',
    });
    const s = returnSummary([rental, heldDeposit, fee]);
    expect(s.fees).toEqual([
      { description: 'Late Return Fee', amount: 2_500, source: 'deposit', takenAt: null, cardLast4: '4242', waived: 0 },
    ]);
    expect(s.deposit).toMatchObject({ kept: 0, released: 0, settledAt: null });
    expect(s.due).toBe(0);
  });

  it('a deposit row that never became a hold is no deposit; cancelled fee rows are not fees', () => {
    const neverHeld = row({ category: 'Deposit', status: 'Canceled', amount: 20_000 });
    const dropped = row({ category: 'Incidental', status: 'Canceled', amount: 2_500 });
    expect(returnSummary([rental, neverHeld, dropped])).toEqual({
      fees: [],
      total: 0,
      deposit: null,
      due: 0,
      waived: 0,
    });
  });
});

describe('the return a trip page shows', () => {
  const booked = '2026-12-03T16:00:00.000Z';
  const ride = (at: string | null) => [{ vehicle_return_at: at }];
  it('a Returned trip shows when the car came back, and keeps the booked time when it differs', () => {
    expect(shownReturn({ status: 'Returned', return_at: booked, rides: ride('2026-12-03T14:10:00.000Z') })).toEqual({
      at: '2026-12-03T14:10:00.000Z',
      returned: true,
      booked,
    });
  });
  it('back within the booked minute: only one time to show', () => {
    expect(shownReturn({ status: 'Returned', return_at: booked, rides: ride('2026-12-03T16:00:40.000Z') }).booked).toBe(
      null,
    );
  });
  it('a trip not ended, or ended without a ride, shows the booked return', () => {
    expect(shownReturn({ status: 'On Rent', return_at: booked, rides: ride(null) })).toEqual({
      at: booked,
      returned: false,
      booked: null,
    });
    expect(shownReturn({ status: 'Returned', return_at: booked, rides: [] }).returned).toBe(false);
  });
});
