import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MILEAGE_OVERAGE_CENTS_PER_MILE, RECHARGE_BANDS } from '@ampere/domain/end-trip';
import { receiptView } from '@ampere/domain/receipt';
import { returnSummary } from '@ampere/domain/return-summary';
import { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import { engines } from './harness.ts';
import { onRentTrip } from './on-rent.ts';
import { type SandboxContext, createSandboxContext, reviewEnds } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';
import { paidPerLedger, takenByProvider } from './trips.ts';

const MINUTE = 60_000;
const HOLD = 20_000;

/**
 * Decision 056: fees that pass the $200.00 deposit by less than the provider's 50-cent minimum
 * charge. Before it, the remainder was owed by card and the pay page's payment call answered 422
 * for ever; now it is waived as the return is settled, and every book agrees.
 */
describe.each(engines())('a remainder below the minimum card charge on %s', (engine) => {
  let ctx: SandboxContext;
  let fleet: SimulatedFleet;
  beforeAll(async () => {
    ctx = await createSandboxContext(engine, { deliver: 'off' });
    fleet = new SimulatedFleet(ctx.handle.db, () => ctx.clock.now);
  });
  afterAll(() => ctx?.close());

  /**
   * The pay page has nothing to ask for (no 422, no charge to confirm), and the provider's books,
   * the ledger and the receipt agree to the cent. The receipt, for what else it should say.
   */
  async function nothingOwedAndBooksAgree(who: SignedIn, trip: { id: string; platformId: string }) {
    const pay = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/payments',
      headers: who.headers,
      payload: { platform_id: trip.platformId },
    });
    expect(pay.statusCode, pay.body).toBe(200);
    expect(pay.json().stripe).toBeNull();
    const receipt = (
      await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/reservations/${trip.platformId}/receipt`,
        headers: who.headers,
      })
    ).json();
    const provider = await takenByProvider(ctx.handle.db, trip.id);
    expect({ ledger: await paidPerLedger(ctx.handle.db, trip.id), receipt: receipt.total }).toEqual({
      ledger: provider,
      receipt: provider,
    });
    return receipt;
  }

  it('3 days back at 5% with 443 miles over: $45.00 + $155.05, the hold kept whole, $0.05 waived, nothing owed', async () => {
    const who = await signInAs(ctx);
    const trip = await onRentTrip(ctx, fleet, who, { days: 3 });
    await fleet.drive(trip.car, { miles: 600 + 443, battery_level: 0.05 });
    ctx.clock.now = new Date(trip.returnAt.getTime() - 10 * MINUTE);
    const as = { headers: who.headers };
    const url = `/api/v1/reservations/${trip.platformId}`;

    const preview = (await ctx.app.inject({ method: 'GET', url: `${url}/end/preview`, ...as })).json();
    expect(preview.fees.map((f: { amount: number }) => f.amount)).toEqual([
      RECHARGE_BANDS[0].cents,
      443 * MILEAGE_OVERAGE_CENTS_PER_MILE,
    ]);
    expect(preview).toMatchObject({ due: 0, waived: 5, deposit: { held: HOLD, kept: HOLD, released: 0 } });

    const ended = await ctx.app.inject({ method: 'POST', url: `${url}/end`, ...as });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().reservation.payment_balance).toBe(0);
    // The review ends (decision 092) and the hold is settled; the trip as the renter reads it then.
    await reviewEnds(ctx, trip.platformId);
    const reservation = (await ctx.app.inject({ method: 'GET', url, ...as })).json().reservation;
    expect(reservation.payment_balance).toBe(0);
    // The summary after End Trip: the fee's part the deposit took, then the rest, waived.
    const summary = returnSummary(reservation.transactions);
    expect(summary.fees.map((f) => [f.description, f.amount, f.source, f.waived])).toEqual([
      ['Recharge Fee (0–20%)', 4_500, 'deposit', 0],
      ['Mileage Overage (443 mi)', 15_500, 'deposit', 0],
      ['Mileage Overage (443 mi)', 0, 'waived', 5],
    ]);
    expect(summary).toMatchObject({ total: HOLD, due: 0, waived: 5, deposit: { kept: HOLD, released: 0 } });

    // The provider's books, the ledger and the receipt agree to the cent, the hold's $200.00 in them.
    const receipt = await nothingOwedAndBooksAgree(who, trip);
    const deposit = receiptView(receipt).cards.find((c) => c.totalLabel === 'Kept from deposit')!;
    expect(deposit.lines.at(-1)).toMatchObject({
      label: 'Mileage Overage (443 mi)',
      note: '$0.05 waived: below the $0.50 minimum card charge',
      amount: '$0.00',
    });
  });

  it('a hold that fell off the card before End Trip: a 35-cent mileage fee cannot come from it, and is waived, not owed', async () => {
    const who = await signInAs(ctx);
    const trip = await onRentTrip(ctx, fleet, who, { days: 3 });
    // The provider cancelled the authorisation (as Stripe does after its days run out); nobody told us yet.
    const hold = await ctx.handle.db
      .selectFrom('payments')
      .select('provider_intent_id')
      .where('reservation_id', '=', trip.id)
      .where('kind', '=', 'DEPOSIT_HOLD')
      .executeTakeFirstOrThrow();
    await ctx.gateway.cancel(hold.provider_intent_id!);
    await fleet.drive(trip.car, { miles: 600 + 1, battery_level: 0.9 });
    ctx.clock.now = new Date(trip.returnAt.getTime() - 10 * MINUTE);
    const as = { headers: who.headers };
    const url = `/api/v1/reservations/${trip.platformId}`;

    const ended = await ctx.app.inject({ method: 'POST', url: `${url}/end`, ...as });
    expect(ended.statusCode, ended.body).toBe(200);
    await reviewEnds(ctx, trip.platformId);
    const reservation = (await ctx.app.inject({ method: 'GET', url, ...as })).json().reservation;
    expect(reservation.payment_balance).toBe(0);
    const summary = returnSummary(reservation.transactions);
    expect(summary).toMatchObject({ total: 0, due: 0, waived: MILEAGE_OVERAGE_CENTS_PER_MILE });
    expect(summary.deposit).toMatchObject({ held: HOLD, kept: 0, released: HOLD });

    const receipt = await nothingOwedAndBooksAgree(who, trip);
    const waivedLine = receiptView(receipt)
      .cards.flatMap((c) => c.lines)
      .find((l) => l.label === 'Mileage Overage (1 mi)');
    expect(waivedLine).toMatchObject({ note: '$0.35 waived: below the $0.50 minimum card charge', amount: '$0.00' });
  });
});
