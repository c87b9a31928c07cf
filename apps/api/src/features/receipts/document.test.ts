import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { receiptView } from '@ampere/domain/receipt';
import { pdfTagging, pdfTextLines } from '../../pdf/text.ts';
import { type ReceiptDocument, renderReceipt } from './document.ts';

const line = {
  captured_amount: 0,
  discount_amount: 0,
  released_at: null,
  card_last_4: '4242',
  stripe_reserve_applied_payment_intent_id: null,
  initiated_at: '2026-11-22T15:00:00Z',
  payment: 1,
};
const view = receiptView({
  platform_id: 'AMP-7K2Q-9XD4',
  pickup_at: '2026-11-29T16:00:00Z',
  return_at: '2026-12-02T16:00:00Z',
  timezone: 'America/Chicago',
  vehicle: { vin: '7SAYGDEF5SF100123', year: 2025, model: { name: 'Model Y' } },
  damage_waiver: true,
  discount_code: 'WELCOME10',
  payments: [
    { ref: 1, at: '2026-11-22T15:05:00Z', card_last_4: '4242', refunded_at: null },
    { ref: 2, at: '2026-11-22T15:06:00Z', card_last_4: '4242', refunded_at: null },
  ],
  rides: [
    {
      mileage_out: 1_000,
      mileage_in: 1_250,
      battery_out: 0.9,
      battery_in: 0.05,
      vehicle_pickup_at: '2026-11-29T16:02:00Z',
      vehicle_return_at: '2026-12-02T15:40:00Z',
    },
  ],
  transactions: [
    { ...line, category: 'Rack', status: 'Successful', amount: 30_000, discount_amount: 3_000, number_of_days: 3 },
    { ...line, category: 'Addon', status: 'Successful', amount: 7_500, addon: { type: 'DAMAGE_WAIVER' } },
    {
      ...line,
      category: 'Deposit',
      status: 'Captured',
      amount: 20_000,
      captured_amount: 4_500,
      released_at: '2026-12-02T15:41:00Z',
      payment: 2,
    },
    {
      ...line,
      category: 'Incidental',
      status: 'Successful',
      amount: 4_500,
      description: 'Recharge Fee (0–20%)',
      initiated_at: '2026-12-02T15:40:30Z',
      stripe_reserve_applied_payment_intent_id: 'pi_1',
      payment: 2,
    },
  ],
});
const base: ReceiptDocument = {
  productName: 'Ampere',
  platformId: 'AMP-7K2Q-9XD4',
  place: 'Nashville Downtown Garage, Nashville, TN',
  view,
  issuedAt: new Date('2026-12-03T15:00:00Z'),
  timeZone: 'America/Chicago',
};

describe('receipt PDFs', () => {
  it('print the receipt page’s words: total, car, the ride’s dates, waiver, readings, and every card with its items', async () => {
    const pdf = await renderReceipt(base);
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = pdfTextLines(pdf).join('\n');
    for (const expected of [
      'Your Receipts',
      'Trip AMP-7K2Q-9XD4',
      'Total paid',
      '$390.00',
      '2025 Model Y',
      '7SAYGDEF5SF100123',
      'Nov 29, 2026, 10:02 AM CST',
      'Dec 2, 2026, 9:40 AM CST',
      'Collision Protection active',
      'Mileage in',
      '1,250 mi',
      'Battery in',
      '5%',
      'Receipt #7K2Q-001',
      'Payment · Nov 22, 2026, 9:05 AM CST',
      'Rental (3 days)',
      '$300.00',
      'Collision Protection',
      '$75.00',
      'Discount (WELCOME10)',
      '-$30.00',
      '$345.00',
      'Paid with card ending in ...4242',
      'Receipt #7K2Q-002',
      'Partially Captured · Dec 2, 2026, 9:41 AM CST',
      '$200.00 held -> $45.00 kept for the Recharge Fee -> $155.00 released on Dec 2, 2026',
      'Recharge Fee (0–20%) (Pulled from security deposit)',
      'Kept from deposit',
      '$45.00',
      'Held on card ending in ...4242',
      'Page 1 of 1',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('are tagged for screen readers, in English, with their title shown', async () => {
    const tagging = pdfTagging(await renderReceipt(base));
    expect(tagging).toMatchObject({
      hasStructureTree: true,
      isMarked: true,
      lang: 'en-US',
      title: 'Ampere Receipt - Trip AMP-7K2Q-9XD4',
      displaysTitle: true,
    });
    expect(tagging.structureTypes).toContain('H1');
    // One H2 for the trip and one per receipt card.
    expect(tagging.structureTypes.filter((t) => t === 'H2')).toHaveLength(1 + view.cards.length);
  });

  it('are the same bytes for the same receipt and time of issue', async () => {
    expect(Buffer.from(await renderReceipt(base)).equals(Buffer.from(await renderReceipt(base)))).toBe(true);
  });

  it('are byte for byte the receipts issued before', async () => {
    // Pinned figures: receipts share the agreements' layout, so a change to its measuring that moves
    // a byte shows here too.
    const sha256 = (pdf: Uint8Array) => createHash('sha256').update(pdf).digest('hex');
    expect({
      receipt: sha256(await renderReceipt(base)),
      nothingPaid: sha256(await renderReceipt({ ...base, view: { ...view, cards: [] } })),
    }).toEqual({
      receipt: '608162a1ed4d30cfa43d19ff293a5180884d0ddda4d8340551cd9a4d58f02471',
      nothingPaid: '9e2f537e3b3bde63d6614f7cf74674136e37bfef77368bf5df51d085e5bf05dc',
    });
  });

  it('show what was paid and refunded above Total paid once anything was given back', async () => {
    const lines = pdfTextLines(
      await renderReceipt({
        ...base,
        view: { ...view, total: '$0.00', refunds: { paid: '$345.00', refunded: '$345.00' } },
      }),
    );
    const text = lines.map((l) => l.trim());
    const at = text.indexOf('Paid');
    expect(text.slice(at, at + 6)).toEqual(['Paid', '$345.00', 'Refunded', '$345.00', 'Total paid', '$0.00']);
  });

  it('say so when nothing was paid yet', async () => {
    const text = pdfTextLines(await renderReceipt({ ...base, view: { ...view, cards: [] } })).join('\n');
    expect(text).toContain('No payments on this trip yet.');
  });
});
