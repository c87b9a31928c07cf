import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ReceiptPayment,
  type ReceiptSource,
  type ReceiptTransaction,
  depositLabel,
  depositReceiptLabel,
  formatBattery,
  formatMiles,
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
  payment: 1,
  ...over,
});
const pay = (ref: number, at: string, refunded_at: string | null = null): ReceiptPayment => ({
  ref,
  at,
  card_last_4: '4242',
  refunded_at,
});
const BOOKED = '2026-11-22T15:00:00Z';
const TAX_ADDED = '2026-11-22T15:05:00Z';
const PAID = '2026-11-22T15:10:00Z';
const HELD = '2026-11-22T15:11:00Z';
/** Dec 2 at 9:41 AM in Chicago: the return, and the hold's release. */
const RETURNED = '2026-12-02T15:41:00Z';

const trip = (over: Partial<ReceiptSource>): ReceiptSource => ({
  platform_id: 'AMP-7K2Q-9XD4',
  pickup_at: '2026-11-29T16:00:00Z',
  return_at: '2026-12-02T16:00:00Z',
  timezone: 'America/Chicago',
  vehicle: { vin: '7SAYGDEF5SF100123', year: 2025, model: { name: 'Model Y' } },
  damage_waiver: false,
  discount_code: null,
  rides: [],
  payments: [pay(1, PAID), pay(2, HELD)],
  transactions: [],
  ...over,
});
const hold = (over: Partial<ReceiptTransaction> = {}) =>
  tx({ category: 'Deposit', status: 'Pending', amount: 20_000, captured_amount: 0, payment: 2, ...over });
const recharge = tx({
  category: 'Incidental',
  status: 'Successful',
  description: 'Recharge Fee (0–20%)',
  amount: 4_500,
  captured_amount: 4_500,
  initiated_at: '2026-12-02T15:40:30Z',
  stripe_reserve_applied_payment_intent_id: 'pi_hold',
  payment: 2,
});

describe('receipt cards: one per payment (decision 051)', () => {
  it('a charge’s items are one card, though the tax was written later than the rental; the hold is its own card', () => {
    const cards = receiptCards(
      [
        tx({ category: 'Tax', status: 'Successful', amount: 92, initiated_at: TAX_ADDED }),
        tx({ category: 'Rack', status: 'Successful', initiated_at: BOOKED }),
        hold(),
        tx({ category: 'Addon', status: 'Canceled' }),
        tx({ category: 'Rack', status: 'Pending', payment: null }),
      ],
      [pay(1, PAID), pay(2, HELD)],
    );
    expect(cards.map((c) => [c.kind, c.label, c.at, c.items.map((i) => i.category)])).toEqual([
      ['payment', 'Payment', new Date(PAID).toISOString(), ['Rack', 'Tax']],
      ['deposit', 'Authorization', new Date(HELD).toISOString(), ['Deposit']],
    ]);
  });

  it('the fees kept from the deposit are on the deposit’s card, dated at its release and labelled by its status', () => {
    const cards = receiptCards(
      [
        tx({ category: 'Rack', status: 'Successful' }),
        hold({ status: 'Captured', captured_amount: 4_500, released_at: RETURNED }),
        recharge,
      ],
      [pay(1, PAID), pay(2, HELD)],
    );
    expect(cards.map((c) => [c.label, c.at, c.items.map((i) => i.category)])).toEqual([
      ['Payment', new Date(PAID).toISOString(), ['Rack']],
      ['Partially Captured', new Date(RETURNED).toISOString(), ['Incidental', 'Deposit']],
    ]);
  });

  it('a refunded payment keeps its Payment card and gains a Refund card dated at the refund', () => {
    const refunded = '2026-11-24T20:00:00Z';
    const cards = receiptCards(
      [tx({ category: 'Rack', status: 'Refunded' }), tx({ category: 'Tax', status: 'Refunded', amount: 90 })],
      [pay(1, PAID, refunded)],
    );
    expect(cards.map((c) => [c.kind, c.label, c.at, c.payment])).toEqual([
      ['payment', 'Payment', new Date(PAID).toISOString(), 1],
      ['refund', 'Refund', new Date(refunded).toISOString(), 1],
    ]);
  });

  it('items no payment is known for fall back to spec 4’s grouping by instant; within a card spec 4’s order', () => {
    const order = ['Reimbursement', 'Incidental', 'Violation', 'Additional', 'Addon', 'Rack'];
    const [card, later] = receiptCards(
      [
        ...order.map((category) => tx({ category, status: 'Successful', payment: null })),
        tx({ category: 'Rack', status: 'Successful', payment: null, initiated_at: '2027-01-06T15:00:00Z' }),
      ],
      [],
    );
    expect(card!.items.map((i) => i.category)).toEqual([...order].reverse());
    expect(later!.at).toBe('2027-01-06T15:00:00.000Z');
  });

  it('spec 4’s labels: a held, released or failed deposit; none for a deposit never held; Pulled from without its deposit', () => {
    const one = (t: ReceiptTransaction) => receiptCards([t], [pay(2, HELD)]).map((c) => c.label);
    expect(one(hold())).toEqual(['Authorization']);
    expect(one(hold({ status: 'Canceled', released_at: RETURNED }))).toEqual(['Released']);
    expect(one(hold({ status: 'Failed' }))).toEqual([]);
    expect(one(hold({ card_last_4: null }))).toEqual([]);
    expect(one(hold({ status: 'Canceled', card_last_4: null }))).toEqual([]);
    expect(one(recharge)).toEqual(['Pulled from']);
    expect(depositReceiptLabel('Successful')).toBe('Authorization');
    // A hold captured for a fee that a dispute then gave back: the capture stays its card's label.
    expect(depositReceiptLabel('Refunded')).toBe('Partially Captured');
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
        recharge,
        hold({ status: 'Captured', captured_amount: 4_500 }),
        tx({ category: 'Addon', status: 'Refunded', amount: 2_500 }),
        tx({ category: 'Rack', status: 'Pending', amount: 10_000 }),
      ]),
    ).toBe(27_000 + 2_498 + 4_500);
  });
});

describe('the receipt as every page and the PDF word it (spec 2, decision 051)', () => {
  const paidTrip = [
    tx({ id: 't1', category: 'Rack', status: 'Successful', amount: 30_000, discount_amount: 3_000, number_of_days: 3 }),
    tx({
      id: 't2',
      category: 'Addon',
      status: 'Successful',
      amount: 7_500,
      discount_amount: 750,
      addon: { type: 'DAMAGE_WAIVER' },
    }),
    tx({ id: 't3', category: 'Tax', status: 'Successful', amount: 3_122, initiated_at: TAX_ADDED }),
  ];

  it('one card for the payment: items at their price, the coupon’s line before the tax, the card it was paid with', () => {
    const view = receiptView(trip({ discount_code: 'WELCOME10', transactions: [...paidTrip, hold()] }));
    expect(view.total).toBe('$368.72');
    expect(view.refunds).toBeNull();
    const [payment, deposit] = view.cards;
    expect(payment).toMatchObject({
      title: 'Receipt #7K2Q-001',
      label: 'Payment',
      date: 'Nov 22, 2026, 9:10 AM CST',
      totalLabel: 'Total',
      total: '$368.72',
      story: null,
      paidWith: 'Paid with card ending in ...4242',
    });
    expect(payment!.lines.map((l) => [l.label, l.amount])).toEqual([
      ['Rental (3 days)', '$300.00'],
      ['Collision Protection', '$75.00'],
      ['Discount (WELCOME10)', '-$37.50'],
      ['Sales tax', '$31.22'],
    ]);
    expect(deposit).toMatchObject({
      title: 'Receipt #7K2Q-002',
      label: 'Authorization',
      totalLabel: 'Kept from deposit',
      total: '$0.00',
      story: '$200.00 held',
      lines: [],
      paidWith: 'Held on card ending in ...4242',
    });
  });

  it('the deposit as a story: held, kept for the fees (each a line pulled from it), released on the day, on the place’s clock', () => {
    const late = tx({ ...recharge, id: 'late', description: 'Late Return Fee', amount: 2_500 });
    const view = receiptView(
      trip({
        transactions: [
          ...paidTrip,
          hold({ status: 'Captured', captured_amount: 7_000, released_at: RETURNED }),
          { ...recharge, id: 'fee' },
          late,
        ],
      }),
    );
    const deposit = view.cards[1]!;
    expect(deposit).toMatchObject({
      label: 'Partially Captured',
      date: 'Dec 2, 2026, 9:41 AM CST',
      total: '$70.00',
      story:
        '$200.00 held → $70.00 kept for the Recharge Fee and the Late Return Fee → $130.00 released on Dec 2, 2026',
    });
    expect(deposit.lines).toEqual([
      { key: 'fee', label: 'Recharge Fee (0–20%)', note: 'Pulled from security deposit', amount: '$45.00' },
      { key: 'late', label: 'Late Return Fee', note: 'Pulled from security deposit', amount: '$25.00' },
    ]);
    // Released whole, or kept whole: the story says only what happened.
    const released = receiptView(trip({ transactions: [hold({ status: 'Canceled', released_at: RETURNED })] }));
    expect(released.cards[0]!.story).toBe('$200.00 held → $200.00 released on Dec 2, 2026');
    const keptAll = receiptView(
      trip({ transactions: [hold({ status: 'Captured', captured_amount: 20_000, released_at: RETURNED })] }),
    );
    expect(keptAll.cards[0]!.story).toBe('$200.00 held → $200.00 kept');
  });

  it('fees past the hold by under 50 cents: the rest beside the kept fees, waived, nothing taken for it (decision 056)', () => {
    const kept = tx({ ...recharge, id: 'miles', description: 'Mileage Overage (443 mi)', amount: 15_500 });
    const waived = tx({
      id: 'rest',
      category: 'Incidental',
      status: 'Successful',
      description: 'Mileage Overage (443 mi)',
      amount: 5,
      captured_amount: 0,
      discount_amount: 5,
      initiated_at: recharge.initiated_at,
      card_last_4: null,
      payment: null,
    });
    const captured = hold({ status: 'Captured', captured_amount: 20_000, released_at: RETURNED });
    const view = receiptView(trip({ transactions: [...paidTrip, captured, recharge, kept, waived] }));
    expect(view.total).toBe('$568.72');
    expect(view.cards).toHaveLength(2);
    expect(view.cards[1]).toMatchObject({
      totalLabel: 'Kept from deposit',
      total: '$200.00',
      story: '$200.00 held → $200.00 kept for the Recharge Fee and the Mileage Overage',
    });
    expect(view.cards[1]!.lines.map((l) => [l.label, l.note, l.amount])).toEqual([
      ['Recharge Fee (0–20%)', 'Pulled from security deposit', '$45.00'],
      ['Mileage Overage (443 mi)', 'Pulled from security deposit', '$155.00'],
      ['Mileage Overage (443 mi)', '$0.05 waived: below the $0.50 minimum card charge', '$0.00'],
    ]);
    // With no hold to keep the fees, the waived fee is a card of its own that took nothing.
    const alone = { ...waived, amount: 35, discount_amount: 35, description: 'Mileage Overage (1 mi)' };
    const own = receiptView(trip({ transactions: [...paidTrip, alone] })).cards.at(-1)!;
    expect(own).toMatchObject({ label: 'Waived', total: '$0.00', paidWith: null });
    expect(own.lines.map((l) => l.note)).toEqual(['$0.35 waived: below the $0.50 minimum card charge']);
  });

  it('a cancelled trip: the payment on its day, the refund on the refund’s day with its card, and Total paid net of it', () => {
    const refundedAt = '2026-11-25T02:30:00Z';
    const view = receiptView(
      trip({
        payments: [pay(1, PAID, refundedAt), pay(2, HELD)],
        transactions: [
          ...paidTrip.map((t) => ({ ...t, status: 'Refunded' })),
          hold({ status: 'Canceled', released_at: '2026-11-25T02:29:00Z' }),
        ],
      }),
    );
    expect(view.total).toBe('$0.00');
    expect(view.refunds).toEqual({ paid: '$368.72', refunded: '$368.72' });
    expect(view.cards.map((c) => [c.title, c.label, c.date, c.total])).toEqual([
      ['Receipt #7K2Q-001', 'Payment', 'Nov 22, 2026, 9:10 AM CST', '$368.72'],
      ['Receipt #7K2Q-002', 'Released', 'Nov 24, 2026, 8:29 PM CST', '$0.00'],
      ['Receipt #7K2Q-003', 'Refund', 'Nov 24, 2026, 8:30 PM CST', '-$368.72'],
    ]);
    expect(view.cards[2]).toMatchObject({
      totalLabel: 'Refunded',
      lines: [{ label: 'Refund of Receipt #7K2Q-001', note: null, amount: '-$368.72' }],
      paidWith: 'Refunded to card ending in ...4242',
    });
  });

  it('a change paid later is a card of its own, on its own day', () => {
    const view = receiptView(
      trip({
        payments: [pay(1, PAID), pay(2, HELD), pay(3, '2026-11-30T18:00:00Z')],
        transactions: [
          ...paidTrip,
          hold(),
          tx({ id: 'x', category: 'Rack', status: 'Successful', amount: 10_000, number_of_days: 1, payment: 3 }),
          tx({ id: 'y', category: 'Tax', status: 'Successful', amount: 925, payment: 3 }),
        ],
      }),
    );
    expect(view.cards.map((c) => [c.label, c.date, c.total])).toEqual([
      ['Payment', 'Nov 22, 2026, 9:10 AM CST', '$368.72'],
      ['Authorization', 'Nov 22, 2026, 9:11 AM CST', '$0.00'],
      ['Payment', 'Nov 30, 2026, 12:00 PM CST', '$109.25'],
    ]);
    expect(view.cards[2]!.lines.map((l) => l.label)).toEqual(['Rental (1 day)', 'Sales tax']);
  });

  it('a rental written a row per day, and an add-on charged by the day, read as one row each, as on the trip page', () => {
    const perDay = [1, 2, 3].map((n) =>
      tx({ id: `r${n}`, category: 'Rack', status: 'Successful', amount: 7_300, number_of_days: 1 }),
    );
    const waiver = [1, 2, 3].map((n) =>
      tx({ id: `w${n}`, category: 'Damage Waiver', status: 'Successful', amount: 2_500 }),
    );
    const view = receiptView(
      trip({
        transactions: [...perDay, ...waiver, tx({ id: 'x', category: 'Tax', status: 'Successful', amount: 2_720 })],
      }),
    );
    expect(view.cards[0]!.lines.map((l) => [l.label, l.amount])).toEqual([
      ['Rental (3 days)', '$219.00'],
      ['Collision Protection', '$75.00'],
      ['Sales tax', '$27.20'],
    ]);
    expect(view.cards[0]!.total).toBe('$321.20');
  });

  it('the car, the dates on the place’s clock (the ride’s own when it has one), the waiver badge, readings with On Rent', () => {
    const ride = {
      mileage_out: 24_970.4,
      mileage_in: null,
      battery_out: 0.8,
      battery_in: null,
      vehicle_pickup_at: '2026-11-29T16:04:00Z',
      vehicle_return_at: null,
    };
    const view = receiptView(trip({ rides: [ride] }));
    expect(isSharedReceiptReady({ rides: [ride] })).toBe(true);
    expect(isSharedReceiptReady({ rides: [] })).toBe(false);
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
    const before = receiptView(trip({ damage_waiver: true }));
    expect(before.readings).toEqual([]);
    expect(before.from).toBe('Nov 29, 2026, 10:00 AM CST');
    expect(before.waiver.text).toBe('Collision Protection active');
  });
});

/** '$1,234.50' or '-$12.00' back to cents, to check the words add up. */
const cents = (s: string) => {
  const m = /^(-?)\$([\d,]+)\.(\d\d)$/.exec(s);
  if (!m) throw new Error(`not an amount: ${s}`);
  return (m[1] ? -1 : 1) * (Number(m[2]!.replace(/,/g, '')) * 100 + Number(m[3]));
};

describe('receipts of any trip: extras × coupon × deposit × refund × a later change', () => {
  const ADDONS = [
    { type: 'DAMAGE_WAIVER', cents: 2_500 },
    { type: 'UNLIMITED_MILES', cents: 1_500 },
    { type: 'PREPAID_EV_CHARGING', cents: 3_000 },
  ] as const;
  const COUPONS = [null, { code: 'WELCOME10', pct: 10 }, { code: 'EVENT15', pct: 15 }] as const;
  const arbitraryTrip = fc.record({
    days: fc.integer({ min: 1, max: 28 }),
    rate: fc.integer({ min: 5_000, max: 30_000 }),
    extras: fc.subarray([0, 1, 2]),
    coupon: fc.constantFrom(...COUPONS),
    outcome: fc.constantFrom('held', 'released', 'kept', 'cancelled'),
    fee: fc.integer({ min: 1, max: 20_000 }),
    change: fc.boolean(),
  });

  /** A trip as the ledger leaves it: the first charge (refunded when cancelled), the hold, any later change's charge. */
  function sample(a: {
    days: number;
    rate: number;
    extras: number[];
    coupon: (typeof COUPONS)[number];
    outcome: string;
    fee: number;
    change: boolean;
  }): { source: ReceiptSource; charges: number[]; refunded: boolean; kept: number } {
    const pct = a.coupon?.pct ?? 0;
    const refunded = a.outcome === 'cancelled';
    const status = refunded ? 'Refunded' : 'Successful';
    const off = (n: number) => Math.floor((n * pct) / 100);
    const items = [
      tx({
        category: 'Rack',
        status,
        amount: a.rate * a.days,
        discount_amount: off(a.rate * a.days),
        number_of_days: a.days,
      }),
      ...a.extras.map((i) =>
        tx({
          category: 'Addon',
          status,
          amount: ADDONS[i]!.cents * a.days,
          discount_amount: off(ADDONS[i]!.cents * a.days),
          addon: { type: ADDONS[i]!.type },
        }),
      ),
    ];
    const tax = Math.round(items.reduce((s, t) => s + t.amount - t.discount_amount, 0) * 0.0925);
    items.push(tx({ category: 'Tax', status, amount: tax, initiated_at: TAX_ADDED }));
    const charges = [items.reduce((s, t) => s + t.amount - t.discount_amount, 0)];
    const payments = [pay(1, PAID, refunded ? '2026-11-24T18:00:00Z' : null), pay(2, HELD)];
    if (a.change && !refunded) {
      payments.push(pay(3, '2026-11-30T18:00:00Z'));
      items.push(tx({ category: 'Rack', status: 'Successful', amount: a.rate, number_of_days: 1, payment: 3 }));
      charges.push(a.rate);
    }
    const kept = a.outcome === 'kept' ? Math.min(a.fee, 20_000) : 0;
    const released = a.outcome === 'held' ? null : RETURNED;
    items.push(
      hold({
        status: kept > 0 ? 'Captured' : released ? 'Canceled' : 'Pending',
        captured_amount: kept,
        released_at: released,
      }),
    );
    if (kept > 0) items.push({ ...recharge, amount: kept, captured_amount: kept });
    const source = trip({ discount_code: a.coupon?.code ?? null, payments, transactions: items });
    return { source, charges, refunded, kept };
  }

  it('every charge is one card whose total is what it took; the cards add up to Total paid, which is paid less refunded', () => {
    fc.assert(
      fc.property(arbitraryTrip, (a) => {
        const { source, charges, refunded, kept } = sample(a);
        const view = receiptView(source);
        const of = (label: string) => view.cards.filter((c) => c.label === label);
        expect(of('Payment').map((c) => cents(c.total))).toEqual(charges);
        expect(view.cards.reduce((s, c) => s + cents(c.total), 0)).toBe(cents(view.total));
        expect(cents(view.total)).toBe(paidCents(source.transactions));
        const paid = charges.reduce((s, c) => s + c, 0) + kept;
        if (refunded) {
          expect(view.refunds).toEqual({ paid: view.cards[0]!.total, refunded: view.cards[0]!.total });
          expect(of('Refund')).toHaveLength(1);
          expect(cents(view.total)).toBe(0);
        } else {
          expect(view.refunds).toBeNull();
          expect(of('Refund')).toHaveLength(0);
          expect(cents(view.total)).toBe(paid);
        }
        // Cards by date, each dated and paid with a card.
        expect(view.cards.every((c) => c.paidWith?.endsWith('card ending in ...4242'))).toBe(true);
      }),
    );
  });

  it('the coupon is on the first charge’s card by name, before the tax, for what it took off', () => {
    fc.assert(
      fc.property(arbitraryTrip, (a) => {
        const { source } = sample(a);
        const lines = receiptView(source).cards[0]!.lines;
        const discount = lines.find((l) => l.label.startsWith('Discount'));
        const off = source.transactions.reduce((s, t) => s + (t.payment === 1 ? t.discount_amount : 0), 0);
        if (off === 0) {
          expect(discount).toBeUndefined();
          return;
        }
        expect(discount!.label).toBe(`Discount (${a.coupon!.code})`);
        expect(cents(discount!.amount)).toBe(-off);
        expect(lines.indexOf(discount!)).toBe(lines.length - 2);
        expect(lines.at(-1)!.label).toBe('Sales tax');
      }),
    );
  });

  it('the deposit’s story says what was held, kept and released, and its amounts add up to the hold', () => {
    fc.assert(
      fc.property(arbitraryTrip, (a) => {
        const { source, kept } = sample(a);
        const deposit = receiptView(source).cards.find((c) => c.totalLabel === 'Kept from deposit')!;
        const parts = deposit.story!.split(' → ');
        expect(parts[0]).toBe('$200.00 held');
        expect(cents(deposit.total)).toBe(kept);
        const keptPart = parts.find((p) => p.includes(' kept'));
        const releasedPart = parts.find((p) => p.includes(' released on '));
        expect(keptPart === undefined).toBe(kept === 0);
        if (keptPart) expect(keptPart).toBe(`${deposit.total} kept for the Recharge Fee`);
        if (a.outcome === 'held') expect(parts).toHaveLength(1);
        else if (kept < 20_000) expect(cents(releasedPart!.split(' ')[0]!) + kept).toBe(20_000);
        else expect(releasedPart).toBeUndefined();
        expect(deposit.lines.every((l) => l.note === 'Pulled from security deposit')).toBe(true);
      }),
    );
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
