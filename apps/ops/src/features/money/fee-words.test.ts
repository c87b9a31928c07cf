import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FEE_CATALOGUE, POSTABLE_FEE_TYPE_IDS, priceCharge } from '@ampere/domain/fees';
import { formatTotal } from '@ampere/domain/money';
import { centsOf, evidenceWords, priceWords, quantityLabel, typesAmount } from './fee-words.ts';

describe('the charge form’s words for the fee catalogue', () => {
  it('an amount typed in dollars is the same whole cents, whatever it is', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), (cents) => centsOf(cents / 100) === cents));
    expect(centsOf('')).toBeUndefined();
  });

  it('every postable fee shows its published price and its evidence rule, and asks for what its price needs', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...POSTABLE_FEE_TYPE_IDS),
        fc.integer({ min: 1, max: 2_000 }),
        fc.integer({ min: 1, max: 300_000 }),
        (type, quantity, cents) => {
          const fee = FEE_CATALOGUE[type];
          if (fee.price.kind === 'fixed') expect(priceWords(fee)).toContain(formatTotal(fee.price.cents));
          for (const kind of fee.evidence) expect(evidenceWords(fee.evidence)).toContain(kind);
          // What the form asks for is what the domain prices by: with it and evidence, the price is never about a missing field.
          const priced = priceCharge({
            type,
            quantity: quantityLabel(fee) ? quantity : undefined,
            cents: typesAmount(fee) ? cents : undefined,
            evidence: [{ kind: fee.evidence[0]! }],
          });
          if (!priced.ok) expect(['quantity', 'cents']).toContain(priced.field);
          if (!priced.ok && priced.field === 'quantity') expect(quantityLabel(fee)).not.toBeNull();
          if (!priced.ok && priced.field === 'cents') expect(typesAmount(fee)).toBe(true);
        },
      ),
    );
  });
});
