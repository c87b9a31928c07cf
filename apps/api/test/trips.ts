import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../src/db/schema.ts';
import { recordRideStarts } from '../src/features/trips/rides.ts';
import { advanceTripStatus } from '../src/features/trips/trip-status.ts';
import type { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import type { TestContext } from './harness.ts';

/**
 * Steps and readings several trip tests share: what the payment provider's own records say it kept
 * for a trip, what the trip's ledger says was paid, the extras offered, and a trip going out.
 */

/**
 * What the provider kept for a trip, read from the sandbox's own intents: every amount it received
 * (charges, and deposit holds captured for fees) less what it refunded.
 */
export async function takenByProvider(db: Kysely<Database>, reservationId: string): Promise<number> {
  const rows = await db
    .selectFrom('sandbox_payment_intents')
    .select(['amount_received', 'amount_refunded'])
    .where(sql<string>`metadata->>'reservation_id'`, '=', reservationId)
    .execute();
  return rows.reduce((sum, r) => sum + r.amount_received - r.amount_refunded, 0);
}

/**
 * What the ledger says was paid: the captured amounts of the trip's paid items. The deposit's row
 * is left out: what a captured hold paid for is written as fee items of their own, counted here.
 */
export async function paidPerLedger(db: Kysely<Database>, reservationId: string): Promise<number> {
  const rows = await db
    .selectFrom('transactions')
    .select(['captured_amount'])
    .where('reservation_id', '=', reservationId)
    .where('category', '!=', 'Deposit')
    .where('status', '=', 'Successful')
    .execute();
  return rows.reduce((sum, r) => sum + r.captured_amount, 0);
}

export interface OfferedAddon {
  id: string;
  type: string;
}

/** The extras the booking page offers for a car and period (POST /api/v1/addons/related). */
export async function offeredAddons(
  ctx: TestContext,
  vin: string,
  period: { pickupAt: string; returnAt: string },
): Promise<OfferedAddon[]> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/addons/related',
    payload: { vehicleVin: vin, ...period },
  });
  if (res.statusCode !== 200) throw new Error(`addons/related answered ${res.statusCode}: ${res.body}`);
  return (res.json().addons as OfferedAddon[]).map((a) => ({ id: a.id, type: a.type }));
}

/** A trip lives for days on the test clock; its renter stays signed in through it. */
export async function keepSignedIn(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ expires_at: new Date('2030-01-01T00:00:00Z') })
    .where('user_id', '=', userId)
    .execute();
}

/**
 * A paid trip's pickup time comes: the clock moves to a minute after it, and the trip-status job's
 * steps run as they would — the trip goes On Rent and the car is read as it goes out.
 */
export async function pickUp(
  ctx: TestContext,
  fleet: SimulatedFleet,
  reservationId: string,
): Promise<{ pickupAt: Date; returnAt: Date }> {
  const row = await ctx.handle.db
    .selectFrom('reservations')
    .select(['pickup_at', 'return_at'])
    .where('id', '=', reservationId)
    .executeTakeFirstOrThrow();
  ctx.clock.now = new Date(row.pickup_at.getTime() + 60_000);
  const deps = { db: ctx.handle.db, clock: () => ctx.clock.now };
  await advanceTripStatus(deps);
  // The job reads 50 cars a run, in no order, and the seed leaves trips on rent too: it runs until
  // every trip on rent has its ride, this one included, as it would over its next minutes.
  while ((await recordRideStarts({ ...deps, access: fleet })) > 0);
  return { pickupAt: row.pickup_at, returnAt: row.return_at };
}
