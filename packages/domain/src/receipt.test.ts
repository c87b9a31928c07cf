import { describe, expect, it } from 'vitest';
import { cardTotal, depositReceiptLabel, receiptCards, receiptTitle } from './receipt.ts';

const tx = (over: Partial<Parameters<typeof receiptCards>[0][number]> & { category: string; status: string }) => ({
  amount: 1_000, captured_amount: 1_000, discount_amount: 0, initiated_at: '2027-01-05T15:00:00Z', released_at: null, stripe_reserve_applied_payment_intent_id: null, ...over,
});

describe('receipt cards (spec 4)', () => {
  it('a returned trip: the payment, the captured deposit, and the fees pulled from it, dated in order', () => {
    const cards = receiptCards([
      tx({ category: 'Tax', status: 'Successful', amount: 92, captured_amount: 92 }),
      tx({ category: 'Rack', status: 'Successful' }),
      tx({ category: 'Deposit', status: 'Captured', amount: 20_000, captured_amount: 4_500, released_at: '2027-01-08T16:00:01Z' }),
      tx({ category: 'Incidental', status: 'Successful', amount: 4_500, captured_amount: 4_500, initiated_at: '2027-01-08T16:00:00Z', stripe_reserve_applied_payment_intent_id: 'pi_hold' }),
      tx({ category: 'Addon', status: 'Canceled' }),
      tx({ category: 'Rack', status: 'Pending', initiated_at: '2027-01-06T15:00:00Z' }),
      tx({ category: 'Tax', status: 'Successful', amount: 0, captured_amount: 0, initiated_at: '2027-01-06T15:00:00Z' }),
    ]);
    expect(cards.map((c) => [c.label, c.items.map((i) => i.category)])).toEqual([
      ['Payment', ['Rack', 'Tax']],
      ['Pulled from', ['Incidental']],
      ['Partially Captured', ['Deposit']],
    ]);
    expect(cardTotal(cards[2]!)).toBe(4_500);
  });

  it('labels: refunds, a held or released deposit, a failed deposit left out', () => {
    expect(receiptCards([tx({ category: 'Rack', status: 'Refunded' })])[0]!.label).toBe('Refund');
    expect(receiptCards([tx({ category: 'Deposit', status: 'Pending' })])[0]!.label).toBe('Authorization');
    expect(receiptCards([tx({ category: 'Deposit', status: 'Canceled', released_at: '2027-01-09T00:00:00Z' })])[0]!.label).toBe('Released');
    expect(receiptCards([tx({ category: 'Deposit', status: 'Failed' })])).toEqual([]);
    expect(depositReceiptLabel('Successful')).toBe('Authorization');
  });

  it('titles number the cards after the second part of the trip id', () => {
    expect(receiptTitle('AMP-7K2Q-9XD4', 0)).toBe('Receipt #7K2Q-001');
    expect(receiptTitle('AMP-7K2Q-9XD4', 11)).toBe('Receipt #7K2Q-012');
  });
});
