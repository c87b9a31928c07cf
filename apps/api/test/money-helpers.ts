import { expect } from 'vitest';
import type { StaffRole } from '@ampere/domain/staff';
import { OPS_API } from '@ampere/domain/contract/ops';
import { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import { onRentTrip } from './on-rent.ts';
import type { SandboxContext } from './sandbox-context.ts';
import { type SignedIn, signInAs } from './sessions.ts';
import { signedInStaff } from './staff.ts';

const MINUTE = 60_000;

/** The smallest PNG there is: evidence as a phone would upload it, in 67 bytes. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
export const TINY_PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

export interface ReturnedTrip {
  id: string;
  platformId: string;
  locationId: string;
  vin: string;
  renter: SignedIn;
}

/**
 * A trip driven and returned on time with nothing owed (so the hold is whole), its hold still
 * authorised for the review window. Leaves the clock at the return.
 */
export async function returnedTrip(ctx: SandboxContext, opts: { battery?: number } = {}): Promise<ReturnedTrip> {
  const fleet = new SimulatedFleet(ctx.handle.db, () => ctx.clock.now);
  const who = await signInAs(ctx);
  const trip = await onRentTrip(ctx, fleet, who);
  await fleet.drive(trip.car, { miles: 40, battery_level: opts.battery ?? 0.7 });
  ctx.clock.now = new Date(trip.returnAt.getTime() - 30 * MINUTE);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/reservations/${trip.platformId}/end`,
    headers: who.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  const row = await ctx.handle.db
    .selectFrom('reservations')
    .select('pickup_location_id')
    .where('id', '=', trip.id)
    .executeTakeFirstOrThrow();
  return {
    id: trip.id,
    platformId: trip.platformId,
    locationId: String(row.pickup_location_id),
    vin: trip.car.vin,
    renter: who,
  };
}

export async function staffAt(ctx: SandboxContext, role: StaffRole, locationIds: string[] | null) {
  return signedInStaff(ctx.handle.db, { role, locationIds, now: ctx.clock.now });
}

/** A console call as the staff member with `cookie`. */
export function ops(
  ctx: SandboxContext,
  cookie: string,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return ctx.app.inject({
    method,
    url: `${OPS_API}${url}`,
    headers: { cookie, ...headers },
    ...(body === undefined
      ? {}
      : Buffer.isBuffer(body) || typeof body === 'string'
        ? { payload: body }
        : { payload: body as Record<string, unknown> }),
  });
}

/** Uploads a PNG as photo evidence for the trip; its id. */
export async function photoEvidence(ctx: SandboxContext, cookie: string, tripId: string): Promise<string> {
  const res = await ops(ctx, cookie, 'POST', `/trips/${tripId}/evidence?kind=photo&label=Rear%20seat`, TINY_PNG, {
    'content-type': 'image/png',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/**
 * The three books of a trip, to the cent: what the sandbox provider kept (its intents' received
 * less its refunds, read from its own tables), what the ledger says was paid, and the receipt's
 * total as the renter's receipt page reads it.
 */
export async function books(ctx: SandboxContext, trip: ReturnedTrip) {
  const db = ctx.handle.db;
  const intents = await db
    .selectFrom('sandbox_payment_intents as i')
    .innerJoin('payments as p', 'p.provider_intent_id', 'i.id')
    .select(['i.id', 'i.amount_received'])
    .where('p.reservation_id', '=', trip.id)
    .execute();
  const refunds = intents.length
    ? await db
        .selectFrom('sandbox_refunds')
        .select(['payment_intent_id', 'amount'])
        .where(
          'payment_intent_id',
          'in',
          intents.map((i) => i.id),
        )
        .execute()
    : [];
  const gateway = intents.reduce((s, i) => s + i.amount_received, 0) - refunds.reduce((s, r) => s + r.amount, 0);
  const receipt = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/reservations/${trip.platformId}/receipt`,
    headers: trip.renter.headers,
  });
  expect(receipt.statusCode, receipt.body).toBe(200);
  const owner = await staffAt(ctx, 'owner', null);
  const money = await ops(ctx, owner.cookie, 'GET', `/trips/${trip.id}/charges`);
  expect(money.statusCode, money.body).toBe(200);
  return { gateway, ledger: money.json().books.ledgerPaidCents as number, receipt: receipt.json().total as number };
}

/** The books agree to the cent; what they say was paid. */
export async function agreedBooks(ctx: SandboxContext, trip: ReturnedTrip): Promise<number> {
  const b = await books(ctx, trip);
  expect(b.ledger).toBe(b.gateway);
  expect(b.receipt).toBe(b.gateway);
  expect(b.gateway).toBeGreaterThanOrEqual(0);
  return b.gateway;
}

/** The audit records of the trip, oldest first. */
export function auditOf(ctx: SandboxContext, tripId: string) {
  return ctx.handle.db
    .selectFrom('audit_log')
    .select(['action', 'outcome', 'staff_id', 'after', 'reason'])
    .where('target_id', '=', tripId)
    .orderBy('id')
    .execute();
}

/** The trip's messages of a kind (a text and, with an email, an email each). */
export function messagesOf(ctx: SandboxContext, tripId: string, kind: string) {
  return ctx.handle.db
    .selectFrom('trip_messages')
    .select(['channel', 'body', 'dedupe_key'])
    .where('reservation_id', '=', tripId)
    .where('kind', '=', kind as never)
    .execute();
}
