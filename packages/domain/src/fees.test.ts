import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AT_COST_LIMIT_CENTS,
  EVIDENCE_KINDS,
  FEE_CATALOGUE,
  FEE_TYPE_IDS,
  POSTABLE_FEE_TYPE_IDS,
  priceCharge,
} from './fees.ts';
import { FEE_DESCRIPTIONS } from './end-trip.ts';

const photo = [{ kind: 'photo' as const }];
const documentOnly = [{ kind: 'document' as const }];

describe('the fee catalogue', () => {
  it('names every fee once, says when it applies, and asks for evidence', () => {
    const labels = FEE_TYPE_IDS.map((id) => FEE_CATALOGUE[id].label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const id of FEE_TYPE_IDS) {
      expect(FEE_CATALOGUE[id].when, id).toMatch(/\.$/);
      expect(FEE_CATALOGUE[id].evidence.length, id).toBeGreaterThan(0);
    }
  });

  it('carries the fees the return charges under the names the receipt prints', () => {
    expect(FEE_CATALOGUE.recharge.label).toBe(FEE_DESCRIPTIONS.recharge);
    expect(FEE_CATALOGUE.mileageOverage.when).toBe(
      'Each mile over the 200 a day included, unless Unlimited Miles was added.',
    );
    expect(FEE_CATALOGUE.recharge.when).toContain('(10 %, or 80 % with Prepaid Charging)');
    expect(POSTABLE_FEE_TYPE_IDS).not.toContain('late');
    expect(POSTABLE_FEE_TYPE_IDS).toContain('smoking');
  });

  it('a ticket brings its administration fee; a toll brings none', () => {
    expect(FEE_CATALOGUE.ticket.administration).toBe('ticketAdministration');
    expect(FEE_CATALOGUE.toll.administration).toBeUndefined();
  });
});

describe('pricing a charge', () => {
  it('prices a fixed fee by the catalogue, per unit', () => {
    expect(priceCharge({ type: 'smoking', evidence: photo })).toEqual({
      ok: true,
      amount: 25_000,
      unitCents: 25_000,
      quantity: 1,
      label: 'Smoking Fee',
    });
    expect(priceCharge({ type: 'relocationMileage', quantity: 12, evidence: [{ kind: 'reading' }] })).toMatchObject({
      ok: true,
      amount: 1_800,
    });
  });

  it('prices recovery by the band the miles fall in, and refuses miles beyond the bands', () => {
    const reading = [{ kind: 'reading' as const }];
    expect(priceCharge({ type: 'recovery', quantity: 499, evidence: reading })).toMatchObject({ amount: 15_000 });
    expect(priceCharge({ type: 'recovery', quantity: 500, evidence: reading })).toMatchObject({ amount: 30_000 });
    expect(priceCharge({ type: 'recovery', quantity: 2_000, evidence: reading })).toEqual({
      ok: false,
      field: 'quantity',
      message: 'Recovery Fee is priced for miles from 0 to 1999.',
    });
  });

  it('will not post a charge without evidence of a kind its type accepts', () => {
    expect(priceCharge({ type: 'cleaning', evidence: [] })).toEqual({
      ok: false,
      field: 'evidence',
      message: 'Cleaning Fee needs evidence first: a photo.',
    });
    expect(priceCharge({ type: 'ticket', cents: 6_500, evidence: photo })).toEqual({
      ok: false,
      field: 'evidence',
      message: 'Parking or Traffic Ticket needs evidence first: a document.',
    });
  });

  it('passes a ticket on at its face value, and needs that amount', () => {
    expect(priceCharge({ type: 'ticket', cents: 6_500, evidence: documentOnly })).toMatchObject({
      ok: true,
      amount: 6_500,
    });
    expect(priceCharge({ type: 'ticket', evidence: documentOnly })).toMatchObject({ ok: false, field: 'cents' });
    expect(priceCharge({ type: 'toll', cents: AT_COST_LIMIT_CENTS + 1, evidence: documentOnly })).toEqual({
      ok: false,
      field: 'cents',
      message: 'Toll over $1,000.00 cannot be passed on from the console: check the bill.',
    });
  });

  it('caps damage set by hand, and never takes the automatic fees by hand', () => {
    expect(priceCharge({ type: 'damage', cents: 250_001, evidence: photo })).toEqual({
      ok: false,
      field: 'cents',
      message: 'Damage can be at most $2,500.00 when posted from the console.',
    });
    expect(priceCharge({ type: 'late', evidence: [{ kind: 'reading' }] })).toEqual({
      ok: false,
      field: 'type',
      message: 'Late Return Fee is charged by the return itself, not posted by hand.',
    });
    expect(priceCharge({ type: 'towing' as never, evidence: photo })).toMatchObject({ ok: false, field: 'type' });
  });

  it('any postable charge with its evidence is a whole, positive number of cents; without evidence it is refused', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...POSTABLE_FEE_TYPE_IDS),
        fc.integer({ min: 1, max: 1_999 }),
        fc.integer({ min: 1, max: AT_COST_LIMIT_CENTS }),
        fc.subarray([...EVIDENCE_KINDS]),
        (type, quantity, cents, kinds) => {
          const fee = FEE_CATALOGUE[type];
          const cappedCents = fee.price.kind === 'assessed' ? Math.min(cents, fee.price.maxCents) : cents;
          const result = priceCharge({ type, quantity, cents: cappedCents, evidence: kinds.map((kind) => ({ kind })) });
          if (!kinds.some((k) => fee.evidence.includes(k))) {
            expect(result).toMatchObject({ ok: false, field: 'evidence' });
            return;
          }
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          expect(Number.isSafeInteger(result.amount) && result.amount > 0).toBe(true);
          expect(result.amount).toBe(result.unitCents * result.quantity);
          if (fee.price.kind === 'fixed') expect(result.amount).toBe(fee.price.cents * quantity);
          else if (fee.price.kind !== 'banded') expect(result.amount).toBe(cappedCents);
        },
      ),
    );
  });
});
