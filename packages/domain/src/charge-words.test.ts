import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SandboxPaymentIntent } from './contract/booking.ts';
import {
  type ChargeParts,
  PAYMENT_ROW_STATUSES,
  byChargeOrder,
  chargeLines,
  paymentStatusWords,
  waitingWords,
} from './charges.ts';
import { byLineOrder } from './line-items.ts';
import { type ReceiptTransaction, byReceiptOrder, receiptCards } from './receipt-cards.ts';

const parts = (over: Partial<ChargeParts> = {}): ChargeParts => ({
  onHoldCents: 0,
  fromDepositCents: 0,
  toCardCents: 0,
  owedCents: 0,
  refundedCents: 0,
  cardLast4: '4242',
  status: 'posted',
  ...over,
});

describe('where a charge’s money stands, in the renter’s words', () => {
  it('a charge on the deposit hold is to be taken from it, never owed or still to pay', () => {
    const held = parts({ onHoldCents: 475 });
    expect(chargeLines(held).map((l) => `${l.label} ${l.amount}`)).toEqual([
      'To be taken from your deposit hold $4.75',
    ]);
    expect(waitingWords(held)).toBe('$4.75 to be taken from your deposit hold');
  });

  it('only what waits on the card is still to pay, or owed', () => {
    const owed = parts({ owedCents: 475 });
    expect(chargeLines(owed).map((l) => l.kind)).toEqual(['owed']);
    expect(chargeLines(owed)[0]!.label).toBe('Still to pay');
    expect(waitingWords(owed)).toBe('$4.75 owed');
  });

  it('what was taken and given back reads in the receipt’s words, and waits on nothing', () => {
    const taken = parts({ fromDepositCents: 5_000, toCardCents: 2_500, refundedCents: 2_500 });
    expect(chargeLines(taken).map((l) => `${l.label} ${l.amount}`)).toEqual([
      'Pulled from security deposit $50.00',
      'Charged to your card ending in ...4242 $25.00',
      'Refund −$25.00',
    ]);
    expect(waitingWords(taken)).toBeNull();
  });

  it('a disputed charge not yet taken waits on the dispute, not on the card: not still to pay', () => {
    const waiting = parts({ owedCents: 475, status: 'disputed' });
    expect(chargeLines(waiting).map((l) => `${l.label} ${l.amount}`)).toEqual([
      'Waiting while we review your dispute $4.75',
    ]);
    expect(waitingWords(waiting)).toBe('$4.75 waiting on your dispute');
  });

  it('a charge split between the hold and a declined card says both', () => {
    expect(waitingWords(parts({ onHoldCents: 2_000, owedCents: 500 }))).toBe(
      '$20.00 to be taken from your deposit hold and $5.00 owed',
    );
  });
});

describe('the order of charges after the trip', () => {
  const at = '2026-11-20T15:00:00.000Z';
  const ticket = { id: 'f0', type: 'ticket' as const, postedAt: at, administrationOf: null };
  const fee = { id: '00', type: 'ticketAdministration' as const, postedAt: at, administrationOf: 'f0' };
  const toll = { id: '99', type: 'toll' as const, postedAt: at, administrationOf: null };
  const earlierToll = { id: 'ff', type: 'toll' as const, postedAt: '2026-11-20T14:00:00.000Z', administrationOf: null };
  const cleaning = {
    id: '11',
    type: 'cleaning' as const,
    postedAt: '2026-11-19T10:00:00.000Z',
    administrationOf: null,
  };

  it('category first (spec 4), then the time posted, then the id; a ticket before its administration fee', () => {
    const want = [earlierToll, toll, ticket, cleaning, fee];
    expect(byChargeOrder([fee, cleaning, toll, ticket, earlierToll], (c) => c).map((c) => c.id)).toEqual(
      want.map((c) => c.id),
    );
  });

  it('is the same whatever order the rows came in', () => {
    const all = [ticket, fee, toll, earlierToll, cleaning];
    const once = byChargeOrder(all, (c) => c).map((c) => c.id);
    fc.assert(
      fc.property(fc.shuffledSubarray(all, { minLength: all.length }), (shuffled) => {
        expect(byChargeOrder(shuffled, (c) => c).map((c) => c.id)).toEqual(once);
      }),
    );
  });

  it('an administration fee in the same category and instant as its charge comes after it, whatever the ids', () => {
    const lines = [
      { category: 'Incidental', at, administration: true, id: 'a' },
      { category: 'Incidental', at, administration: false, id: 'z' },
    ];
    expect(byLineOrder(lines, (l) => l).map((l) => l.id)).toEqual(['z', 'a']);
  });
});

describe('payment statuses in staff’s words', () => {
  const pay = (status: string, over: { kind?: 'CHARGE' | 'DEPOSIT_HOLD'; captured?: number; refunded?: number } = {}) =>
    paymentStatusWords({
      status,
      kind: over.kind ?? 'CHARGE',
      capturedCents: over.captured ?? 0,
      refundedCents: over.refunded ?? 0,
    });

  it('covers every status the provider’s intents can have, and ours, with words (never the raw status)', () => {
    for (const s of SandboxPaymentIntent.shape.status.options) expect(PAYMENT_ROW_STATUSES).toContain(s);
    for (const status of PAYMENT_ROW_STATUSES)
      for (const kind of ['CHARGE', 'DEPOSIT_HOLD'] as const) {
        const words = pay(status, { kind });
        expect(words).not.toBe(status);
        expect(words).not.toMatch(/_/);
      }
  });

  it('says what happened to the money', () => {
    expect(pay('requires_capture', { kind: 'DEPOSIT_HOLD' })).toBe('Held (not yet taken)');
    expect(pay('succeeded', { captured: 4_750 })).toBe('Paid');
    expect(pay('succeeded', { captured: 4_750, refunded: 4_750 })).toBe('Refunded');
    expect(pay('succeeded', { captured: 4_750, refunded: 1_000 })).toBe('Partly refunded');
    expect(pay('succeeded', { kind: 'DEPOSIT_HOLD', captured: 4_750 })).toBe('Taken from the hold');
    expect(pay('requires_payment_method')).toBe('Declined');
    expect(pay('canceled', { kind: 'DEPOSIT_HOLD' })).toBe('Released');
    expect(pay('canceled')).toBe('Canceled (nothing taken)');
  });
});

describe('the lines of a receipt card', () => {
  const line = (id: string, category: string, over: Partial<ReceiptTransaction> = {}): ReceiptTransaction => ({
    id,
    category,
    status: 'Successful',
    amount: 475,
    captured_amount: 475,
    discount_amount: 0,
    initiated_at: '2026-11-20T15:00:00.000Z',
    released_at: null,
    card_last_4: '4242',
    stripe_reserve_applied_payment_intent_id: null,
    payment: 1,
    ...over,
  });
  const payments = [{ ref: 1, at: '2026-11-20T15:00:00.000Z', card_last_4: '4242', refunded_at: null }];

  it('follow one order whatever order the ledger gave them: category, initiated, a charge before its fee, id', () => {
    const toll = line('b', 'Violation');
    const ticket = line('c', 'Violation');
    const parent = line('z', 'Incidental');
    const fee = line('a', 'Incidental', { administration_of: 'z' });
    const later = line('0', 'Violation', { initiated_at: '2026-11-20T16:00:00.000Z', payment: 1 });
    const all = [fee, later, ticket, parent, toll];
    const want = ['b', 'c', '0', 'z', 'a'];
    fc.assert(
      fc.property(fc.shuffledSubarray(all, { minLength: all.length }), (shuffled) => {
        const cards = receiptCards(shuffled, payments);
        expect(cards).toHaveLength(1);
        expect(cards[0]!.items.map((t) => t.id)).toEqual(want);
        expect(byReceiptOrder(shuffled).map((t) => t.id)).toEqual(want);
      }),
    );
  });
});
