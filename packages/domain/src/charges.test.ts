import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChargeMoney,
  DEPOSIT_REVIEW_HOURS,
  DISPUTE_WINDOW_HOURS,
  canDispute,
  chargeCategory,
  chargeStatusOf,
  collectsNow,
  depositReviewEndsAt,
  disputeOpenUntil,
  dollarsToCents,
  keptCents,
  matchToll,
  refundableCents,
  sniffEvidenceType,
  splitCharge,
} from './charges.ts';
import { paidCents } from './receipt-cards.ts';

const AT = new Date('2026-11-20T18:00:00Z');
const HOUR = 3_600_000;

describe('the dispute window', () => {
  it('rule: a charge can be disputed for 72 hours after it is posted, once', () => {
    expect(DISPUTE_WINDOW_HOURS).toBe(72);
    expect(disputeOpenUntil(AT).toISOString()).toBe('2026-11-23T18:00:00.000Z');
    const charge = { status: 'posted' as const, postedAt: AT, disputed: false };
    expect(canDispute(charge, new Date(AT.getTime() + 72 * HOUR)).ok).toBe(true);
    const late = canDispute(charge, new Date(AT.getTime() + 72 * HOUR + 1));
    expect(late).toMatchObject({ ok: false, status: 422 });
    expect(canDispute({ ...charge, disputed: true }, AT)).toMatchObject({ ok: false, status: 409 });
    expect(canDispute({ ...charge, status: 'refunded' }, AT)).toMatchObject({ ok: false, status: 409 });
  });

  it('rule: a disputed charge not yet collected waits; one collected stays until decided', () => {
    expect(collectsNow('disputed')).toBe(false);
    expect(collectsNow('posted')).toBe(true);
    expect(collectsNow('upheld')).toBe(true);
    expect(collectsNow('refunded')).toBe(false);
  });
});

describe('the deposit review window', () => {
  it('rule: the hold settles 24 hours after the return unless staff settle it sooner', () => {
    expect(DEPOSIT_REVIEW_HOURS).toBe(24);
    expect(depositReviewEndsAt(AT).toISOString()).toBe('2026-11-21T18:00:00.000Z');
  });
});

describe('a charge’s state', () => {
  const none: ChargeMoney = { onHold: 0, fromDeposit: 0, toCard: 0, owed: 0, refunded: 0 };
  it('rule: a dispute decides it; otherwise owed, then waiting on the hold, then where it was paid from', () => {
    expect(chargeStatusOf({ ...none, onHold: 100 }, null)).toBe('posted');
    expect(chargeStatusOf({ ...none, fromDeposit: 100 }, null)).toBe('collected');
    expect(chargeStatusOf({ ...none, fromDeposit: 50, toCard: 50 }, null)).toBe('charged');
    expect(chargeStatusOf({ ...none, owed: 100 }, null)).toBe('owed');
    expect(chargeStatusOf({ ...none, toCard: 100, refunded: 100 }, null)).toBe('refunded');
    expect(chargeStatusOf({ ...none, owed: 100 }, { outcome: null })).toBe('disputed');
    expect(chargeStatusOf({ ...none, toCard: 100 }, { outcome: 'rejected' })).toBe('upheld');
    expect(chargeStatusOf(none, { outcome: 'accepted' })).toBe('refunded');
  });

  it('rule: the ledger category follows the fee’s charge kind', () => {
    expect(chargeCategory('cleaning')).toBe('Incidental');
    expect(chargeCategory('toll')).toBe('Violation');
    expect(chargeCategory('roadside')).toBe('Reimbursement');
  });
});

describe('tolls from a statement', () => {
  const trip = (id: string, plate: string | null, from: string, to: string | null) => ({
    tripId: id,
    vehicleId: 1,
    vin: '5YJ3E1EA6RF809796',
    plate,
    pickupAt: new Date(from),
    returnedAt: to ? new Date(to) : null,
  });
  const trips = [
    trip('a', '8ABC123', '2026-11-01T10:00:00Z', '2026-11-03T10:00:00Z'),
    trip('b', '8ABC123', '2026-11-05T10:00:00Z', null),
  ];
  const now = new Date('2026-11-06T00:00:00Z');
  it('rule: matched by plate (any spacing or case) or VIN, within a trip’s pickup..return; a trip still out runs to now', () => {
    expect(matchToll({ plate: '8abc 123', at: new Date('2026-11-02T12:00:00Z') }, trips, now)).toMatchObject({
      ok: true,
      trip: { tripId: 'a' },
    });
    expect(matchToll({ vin: '5yj3e1ea6rf809796', at: new Date('2026-11-05T23:00:00Z') }, trips, now)).toMatchObject({
      ok: true,
      trip: { tripId: 'b' },
    });
    expect(matchToll({ plate: '8ABC123', at: new Date('2026-11-04T12:00:00Z') }, trips, now)).toMatchObject({
      ok: false,
      reason: 'no trip',
    });
    expect(matchToll({ plate: 'ZZZ999', at: new Date('2026-11-02T12:00:00Z') }, trips, now)).toMatchObject({
      ok: false,
      reason: 'no car',
    });
  });

  it('rule: statement amounts are dollars and cents', () => {
    expect(dollarsToCents('4.75')).toBe(475);
    expect(dollarsToCents('$12')).toBe(1_200);
    expect(dollarsToCents('1,250.5')).toBe(125_050);
    expect(dollarsToCents('4.755')).toBeNull();
    expect(dollarsToCents('-3')).toBeNull();
  });
});

describe('evidence files', () => {
  it('rule: a file is what its first bytes say, not its name', () => {
    expect(sniffEvidenceType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffEvidenceType(Buffer.from('%PDF-1.7'))).toBe('application/pdf');
    expect(sniffEvidenceType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffEvidenceType(Buffer.from('<svg/>'))).toBeNull();
  });
});

/**
 * The books over any combination of charges, deposit size, disputes and refunds: each charge
 * takes what the hold can still cover and the card the rest; a disputed charge not yet taken
 * waits (accepted: dropped; rejected: charged to the card); one taken and accepted is refunded;
 * refunds take at most what is left of a payment. Then what the provider kept (captured less
 * refunded) equals what the ledger and the receipt say was paid, to the cent, never negative.
 */
describe('property: gateway = ledger = receipt', () => {
  type Item = { category: string; status: string; amount: number; discount_amount: number; payment: string };
  const charge = fc.record({
    amount: fc.integer({ min: 1, max: 300_000 }),
    dispute: fc.constantFrom(
      'none',
      'before-settle-accepted',
      'before-settle-rejected',
      'after-accepted',
      'after-rejected',
    ),
  });
  it('holds for every mix', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000 }),
        fc.array(charge, { maxLength: 6 }),
        fc.array(fc.record({ payment: fc.nat(7), cents: fc.integer({ min: 1, max: 200_000 }) }), { maxLength: 5 }),
        (deposit, charges, refunds) => {
          const items: Item[] = [];
          const payments = new Map<string, { captured: number; refunded: number }>();
          const pay = (id: string, cents: number) => {
            const p = payments.get(id) ?? { captured: 0, refunded: 0 };
            p.captured += cents;
            payments.set(id, p);
          };
          let room = deposit;
          const onHold: Item[] = [];
          charges.forEach((c, i) => {
            const { fromHold, toCard } = splitCharge(c.amount, room);
            room -= fromHold;
            expect(fromHold + toCard).toBe(c.amount);
            expect(fromHold).toBeGreaterThanOrEqual(0);
            const waits = c.dispute.startsWith('before');
            const dropped = c.dispute === 'before-settle-accepted';
            if (fromHold > 0 && !waits)
              onHold.push({
                category: 'Incidental',
                status: 'Pending',
                amount: fromHold,
                discount_amount: 0,
                payment: 'hold',
              });
            const card = toCard + (waits && !dropped ? fromHold : 0);
            if (card > 0) {
              pay(`card${i}`, card);
              items.push({
                category: 'Incidental',
                status: 'Successful',
                amount: card,
                discount_amount: 0,
                payment: `card${i}`,
              });
            }
          });
          // The hold settles once: everything linked is captured.
          const captured = onHold.reduce((s, t) => s + t.amount, 0);
          expect(captured).toBeLessThanOrEqual(deposit);
          if (captured > 0) pay('hold', captured);
          for (const t of onHold) items.push({ ...t, status: 'Successful' });
          // Accepted after it was taken: each payment that took it refunds its part.
          charges.forEach((c, i) => {
            if (c.dispute !== 'after-accepted') return;
            for (const t of items.filter((x) => x.payment === `card${i}` && x.status === 'Successful')) {
              t.status = 'Refunded';
              payments.get(t.payment)!.refunded += t.amount;
            }
          });
          // Staff refunds, each at most what is left of its payment, split off the paid items.
          const ids = [...payments.keys()];
          for (const r of refunds) {
            const id = ids[r.payment % Math.max(1, ids.length)];
            if (!id) continue;
            const p = payments.get(id)!;
            const cents = Math.min(r.cents, refundableCents(p));
            if (cents <= 0) continue;
            p.refunded += cents;
            let left = cents;
            for (const t of items.filter((x) => x.payment === id && x.status === 'Successful')) {
              const part = Math.min(left, t.amount);
              if (part === t.amount) t.status = 'Refunded';
              else {
                t.amount -= part;
                items.push({ ...t, amount: part, status: 'Refunded' });
              }
              left -= part;
              if (left === 0) break;
            }
            expect(left).toBe(0);
          }
          const kept = keptCents([...payments.values()]);
          for (const p of payments.values()) expect(p.refunded).toBeLessThanOrEqual(p.captured);
          expect(kept).toBeGreaterThanOrEqual(0);
          expect(paidCents(items)).toBe(kept);
        },
      ),
    );
  });
});
