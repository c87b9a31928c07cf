import { describe, expect, it } from 'vitest';
import {
  type ReceiptSource,
  type ReceiptTransaction,
  cardTotal,
  depositLabel,
  formatBattery,
  formatMiles,
  depositReceiptLabel,
  isSharedReceiptReady,
  paidCents,
  receiptCards,
  receiptTitle,
  receiptView,
} from './receipt.ts';

const tx = (over: Partial<ReceiptTransaction> & { category: string; status: string }): ReceiptTransaction => ({
  amount: 1_000,
  captured_amount: 1_000,
  discount_amount: 0,
  initiated_at: '2027-01-05T15:00:00Z',
  released_at: null,
  card_last_4: '4242',
  stripe_reserve_applied_payment_intent_id: null,
  ...over,
});

describe('receipt cards (spec 4)', () => {
  it('a returned trip: the payment, the captured deposit, and the fees pulled from it, dated in order', () => {
    const cards = receiptCards([
      tx({ category: 'Tax', status: 'Successful', amount: 92, captured_amount: 92 }),
      tx({ category: 'Rack', status: 'Successful' }),
      tx({
        category: 'Deposit',
        status: 'Captured',
        amount: 20_000,
        captured_amount: 4_500,
        released_at: '2027-01-08T16:00:01Z',
      }),
      tx({
        category: 'Incidental',
        status: 'Successful',
        amount: 4_500,
        captured_amount: 4_500,
        initiated_at: '2027-01-08T16:00:00Z',
        stripe_reserve_applied_payment_intent_id: 'pi_hold',
      }),
      tx({ category: 'Addon', status: 'Canceled' }),
      tx({ category: 'Rack', status: 'Pending', initiated_at: '2027-01-06T15:00:00Z' }),
      tx({
        category: 'Tax',
        status: 'Successful',
        amount: 0,
        captured_amount: 0,
        initiated_at: '2027-01-06T15:00:00Z',
      }),
    ]);
    expect(cards.map((c) => [c.label, c.items.map((i) => i.category)])).toEqual([
      ['Payment', ['Rack', 'Tax']],
      ['Pulled from', ['Incidental']],
      ['Partially Captured', ['Deposit']],
    ]);
    expect(cardTotal(cards[2]!)).toBe(4_500);
  });

  it('a booking’s payment and its deposit hold, written at the same instant, are two cards: the payment first', () => {
    const cards = receiptCards([
      tx({ category: 'Deposit', status: 'Pending', amount: 20_000 }),
      tx({ category: 'Rack', status: 'Successful' }),
      tx({ category: 'Tax', status: 'Successful', amount: 90 }),
    ]);
    expect(cards.map((c) => [c.label, c.items.map((i) => i.category)])).toEqual([
      ['Payment', ['Rack', 'Tax']],
      ['Authorization', ['Deposit']],
    ]);
  });

  it('within a card: Rack, Addon, Additional, Violation, Incidental, Reimbursement', () => {
    const order = ['Reimbursement', 'Incidental', 'Violation', 'Additional', 'Addon', 'Rack'];
    const [card] = receiptCards(order.map((category) => tx({ category, status: 'Successful' })));
    expect(card!.items.map((i) => i.category)).toEqual([...order].reverse());
  });

  it('labels: refunds, a held or released deposit, a failed deposit left out', () => {
    expect(receiptCards([tx({ category: 'Rack', status: 'Refunded' })])[0]!.label).toBe('Refund');
    expect(receiptCards([tx({ category: 'Deposit', status: 'Pending' })])[0]!.label).toBe('Authorization');
    expect(
      receiptCards([tx({ category: 'Deposit', status: 'Canceled', released_at: '2027-01-09T00:00:00Z' })])[0]!.label,
    ).toBe('Released');
    expect(receiptCards([tx({ category: 'Deposit', status: 'Failed' })])).toEqual([]);
    expect(depositReceiptLabel('Successful')).toBe('Authorization');
  });

  it('a deposit no hold was placed for is no card: not an Authorization before the hold, not Released when an unpaid booking is dropped', () => {
    expect(receiptCards([tx({ category: 'Deposit', status: 'Pending', card_last_4: null })])).toEqual([]);
    expect(receiptCards([tx({ category: 'Deposit', status: 'Canceled', card_last_4: null })])).toEqual([]);
  });

  it('the deposit label wherever it is shown: none before a hold exists, spec 4 once it does', () => {
    expect(depositLabel({ status: 'Pending', card_last_4: null })).toBeNull();
    expect(depositLabel({ status: 'Canceled', card_last_4: null })).toBeNull();
    expect(depositLabel({ status: 'Pending', card_last_4: '4242' })).toBe('Authorization');
    expect(depositLabel({ status: 'Captured', card_last_4: '4242' })).toBe('Partially Captured');
    expect(depositLabel({ status: 'Canceled', card_last_4: '4242' })).toBe('Released');
    expect(depositLabel({ status: 'Failed', card_last_4: null })).toBe('Failed');
  });

  it('titles number the cards after the second part of the trip id', () => {
    expect(receiptTitle('AMP-7K2Q-9XD4', 0)).toBe('Receipt #7K2Q-001');
    expect(receiptTitle('AMP-7K2Q-9XD4', 11)).toBe('Receipt #7K2Q-012');
  });

  it('what the renter paid: paid items net of discounts and the fees taken from the deposit; not refunds, not the hold', () => {
    expect(
      paidCents([
        tx({ category: 'Rack', status: 'Successful', amount: 30_000, discount_amount: 3_000 }),
        tx({ category: 'Tax', status: 'Successful', amount: 2_498 }),
        tx({
          category: 'Incidental',
          status: 'Successful',
          amount: 4_500,
          stripe_reserve_applied_payment_intent_id: 'pi_hold',
        }),
        tx({ category: 'Deposit', status: 'Captured', amount: 20_000, captured_amount: 4_500 }),
        tx({ category: 'Addon', status: 'Refunded', amount: 2_500 }),
        tx({ category: 'Rack', status: 'Pending', amount: 10_000 }),
      ]),
    ).toBe(27_000 + 2_498 + 4_500);
  });
});

describe('the receipt as every page and the PDF show it (spec 2)', () => {
  const source: ReceiptSource = {
    platform_id: 'AMP-7K2Q-9XD4',
    // Booked 10:00 to 10:00 in Chicago; the car went out at 10:04 and came back at 09:40.
    pickup_at: '2026-11-29T16:00:00Z',
    return_at: '2026-12-02T16:00:00Z',
    timezone: 'America/Chicago',
    vehicle: { vin: '7SAYGDEF5SF100123', year: 2025, model: { name: 'Model Y' } },
    damage_waiver: false,
    rides: [
      {
        mileage_out: 24_970.4,
        mileage_in: null,
        battery_out: 0.8,
        battery_in: null,
        vehicle_pickup_at: '2026-11-29T16:04:00Z',
        vehicle_return_at: null,
      },
    ],
    transactions: [
      tx({
        id: 't1',
        category: 'Rack',
        status: 'Successful',
        amount: 30_000,
        number_of_days: 3,
        initiated_at: '2026-11-22T15:00:00Z',
      }),
      tx({ id: 't2', category: 'Tax', status: 'Successful', amount: 2_775, initiated_at: '2026-11-22T15:00:00Z' }),
      tx({ id: 't3', category: 'Deposit', status: 'Pending', amount: 20_000, initiated_at: '2026-11-22T15:00:00Z' }),
    ],
  };

  it('a shared receipt shows once the trip has a ride, not before the car goes out', () => {
    expect(isSharedReceiptReady(source)).toBe(true);
    expect(isSharedReceiptReady({ rides: [] })).toBe(false);
  });

  it('worded once: total, car, dates on the pickup place’s clock (the ride’s own pickup), the waiver badge, readings with On Rent, titled cards', () => {
    const view = receiptView(source);
    expect(view.total).toBe('$327.75');
    expect(view.vehicle).toBe('2025 Model Y');
    expect(view.from).toBe('Nov 29, 2026, 10:04 AM CST');
    expect(view.to).toBe('Dec 2, 2026, 10:00 AM CST');
    expect(view.waiver).toEqual({ active: false, text: 'Collision Protection declined' });
    expect(view.readings).toEqual([
      { label: 'Mileage out', value: '24,970 mi' },
      { label: 'Mileage in', value: 'On Rent' },
      { label: 'Battery out', value: '80%' },
      { label: 'Battery in', value: 'On Rent' },
    ]);
    expect(view.cards.map((c) => [c.title, c.label, c.date, c.total])).toEqual([
      ['Receipt #7K2Q-001', 'Payment', 'Nov 22, 2026, 9:00 AM CST', '$327.75'],
      ['Receipt #7K2Q-002', 'Authorization', 'Nov 22, 2026, 9:00 AM CST', '$200.00'],
    ]);
    expect(view.cards[0]!.lines).toEqual([
      { key: 't1', label: 'Rental (3 days)', note: 'card ending in ...4242', amount: '$300.00' },
      { key: 't2', label: 'Sales tax', note: 'card ending in ...4242', amount: '$27.75' },
    ]);
  });

  it('a rental written a row per day, and an add-on charged by the day, read as one row each on the receipt, as on the trip page', () => {
    const at = '2026-11-22T15:00:00Z';
    const perDay = [1, 2, 3].map((n) =>
      tx({ id: `r${n}`, category: 'Rack', status: 'Successful', amount: 7_300, number_of_days: 1, initiated_at: at }),
    );
    const waiver = [1, 2, 3].map((n) =>
      tx({ id: `w${n}`, category: 'Damage Waiver', status: 'Successful', amount: 2_500, initiated_at: at }),
    );
    const view = receiptView({
      ...source,
      transactions: [
        ...perDay,
        ...waiver,
        tx({ id: 'x', category: 'Tax', status: 'Successful', amount: 2_720, initiated_at: at }),
      ],
    });
    expect(view.cards[0]!.lines.map((l) => [l.label, l.amount])).toEqual([
      ['Rental (3 days)', '$219.00'],
      ['Collision Protection', '$75.00'],
      ['Sales tax', '$27.20'],
    ]);
    expect(view.cards[0]!.total).toBe('$321.20');
  });

  it('no readings before the car has gone out; the booked dates instead of the ride’s', () => {
    const view = receiptView({ ...source, rides: [], damage_waiver: true });
    expect(view.readings).toEqual([]);
    expect(view.from).toBe('Nov 29, 2026, 10:00 AM CST');
    expect(view.waiver.text).toBe('Collision Protection active');
  });

  it('pulled-from cards read in full', () => {
    const view = receiptView({
      ...source,
      transactions: [
        tx({
          category: 'Incidental',
          status: 'Successful',
          description: 'Recharge Fee (0–20%)',
          amount: 4_500,
          stripe_reserve_applied_payment_intent_id: 'pi_hold',
        }),
      ],
    });
    expect(view.cards[0]!.label).toBe('Pulled from security deposit');
    expect(view.cards[0]!.lines[0]!.label).toBe('Recharge Fee (0–20%)');
  });
});

describe('ride readings', () => {
  it('miles rounded with thousands separators, battery as a percentage, a stand-in when the car gave none', () => {
    expect(formatMiles(24_970.4)).toBe('24,970 mi');
    expect(formatMiles(null, 'On Rent')).toBe('On Rent');
    expect(formatBattery(0.055)).toBe('6%');
    expect(formatBattery(null)).toBe('—');
  });
});
