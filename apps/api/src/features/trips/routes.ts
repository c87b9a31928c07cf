import type { FastifyInstance } from 'fastify';
import {
  AddonsPatchBody,
  ConflictCheckBody,
  DateChangeBody,
  DateChangePreview,
  ConflictCheckResult,
  EligibilityResult,
  PlatformIdBody,
  ReservationCreateBody,
  ReservationIdParams,
  ReservationLists,
  ReservationResult,
  ReservationWithSecret,
} from '@ampere/domain/contract/booking';
import { EndTripPreview } from '@ampere/domain/contract/end-trip';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { requireRenter } from '../../http/session.ts';
import type { CancelRetiredCharges } from './checkout.ts';
import type { SearchIndex } from '../vehicles/search-index.ts';
import { cancelReservation } from './cancel.ts';
import { type EndTripDeps, endTrip } from './end-trip.ts';
import { previewEndTrip } from './end-trip-preview.ts';
import { discardDateChange, previewDateChange, requestDateChange } from './change-dates.ts';
import * as service from './service.ts';

/** The renter's trips. Every call acts for the renter the session names; another renter's trip is a 404. */
export function reservationRoutes(
  app: FastifyInstance,
  {
    db,
    clock,
    searchIndex,
    cancelRetired,
    refundDue,
    endTripDeps,
  }: Deps & {
    searchIndex: SearchIndex;
    cancelRetired: CancelRetiredCharges;
    refundDue: (reservationId: string) => Promise<void>;
    endTripDeps: EndTripDeps;
  },
): void {
  const deps = { db, clock, searchIndex };
  const renterId = async (request: Parameters<typeof requireRenter>[2]) => (await requireRenter(db, clock, request)).id;

  route(app, {
    method: 'POST',
    url: '/api/v1/reservations',
    tag: 'reservations',
    status: 201,
    idempotent: true,
    summary:
      'Books a car for the signed-in renter (status Started, unpaid) with its pending line items; dates and times are local to vehicleTimezone. 409 when the car is taken.',
    body: ReservationCreateBody,
    response: ReservationResult,
    handler: async ({ body, db: writeTo = db }, request) => {
      // Everything through writeTo: under an Idempotency-Key it is the one transaction (and the embedded database's one connection).
      const userId = (await requireRenter(writeTo, clock, request)).id;
      return { reservation: await service.createReservation({ ...deps, db: writeTo, cancelRetired }, userId, body) };
    },
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/reservations',
    tag: 'reservations',
    summary:
      "The signed-in renter's trips: upcoming (Started and Pending), active (On Rent), past (Returned) and canceled",
    response: ReservationLists,
    handler: async (_input, request) => service.listReservations(deps, await renterId(request)),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/reservations/conflict-check',
    tag: 'reservations',
    summary:
      "Active reservations of a car overlapping a period (local to vehicleTimezone), leaving out the renter's own trip platform_id",
    body: ConflictCheckBody,
    response: ConflictCheckResult,
    handler: async ({ body }, request) => service.conflictCheck(db, await renterId(request), body),
  });
  route(app, {
    method: 'PATCH',
    url: '/api/v1/reservations/addons',
    tag: 'reservations',
    summary:
      "Sets a trip's pending add-ons to exactly addon_ids (paid ones stay) and recomputes the tax; while Started or Pending",
    body: AddonsPatchBody,
    response: ReservationWithSecret,
    handler: async ({ body }, request) => {
      const userId = await renterId(request);
      const reservation = await service.setAddons(deps, userId, body.platform_id, body.addon_ids);
      await cancelRetired(userId);
      // The payment step makes the client secret for the new amount (spec 4: adding add-ons replaces it).
      return { reservation, stripe: null };
    },
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/reservations/eligibility-check',
    tag: 'reservations',
    summary:
      "The soft credit check for a trip, run once: the built-in check declines a renter whose last name is 'Decline'",
    body: PlatformIdBody,
    response: EligibilityResult,
    handler: async ({ body }, request) => service.checkEligibility(deps, await renterId(request), body.platform_id),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/reservations/:id/cancel',
    tag: 'reservations',
    summary:
      'Cancels the trip while cancellation is free (until one day before pickup, on the pickup place’s clock): the deposit hold is released, what was charged is refunded in full, the key stops working',
    params: ReservationIdParams,
    response: ReservationResult,
    handler: async ({ params }, request) => ({
      reservation: await cancelReservation(
        { db, clock, searchIndex, cancelRetired, refundDue, log: app.log },
        await renterId(request),
        params.id,
      ),
    }),
  });
  const changeDeps = { db, clock, searchIndex, cancelRetired };
  route(app, {
    method: 'POST',
    url: '/api/v1/reservations/:id/change/preview',
    tag: 'reservations',
    summary:
      'What moving the pickup earlier or the return later would add (rental days, add-ons, tax) and whether the car is free for it; changes nothing',
    params: ReservationIdParams,
    body: DateChangeBody,
    response: DateChangePreview,
    handler: async ({ params, body }, request) =>
      previewDateChange(changeDeps, await renterId(request), params.id, body),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/reservations/:id/change',
    tag: 'reservations',
    summary:
      'Moves a paid trip’s pickup earlier (before it starts) or its return later (dates local to the pickup place): the car is held for the new dates at once (409 when taken), the added days are pending items to pay on /trip/{id}/pay, and the dates move when they are paid; unpaid, the change lapses after 30 minutes',
    params: ReservationIdParams,
    body: DateChangeBody,
    response: ReservationResult,
    handler: async ({ params, body }, request) => ({
      reservation: await requestDateChange(changeDeps, await renterId(request), params.id, body),
    }),
  });
  route(app, {
    method: 'DELETE',
    url: '/api/v1/reservations/:id/change',
    tag: 'reservations',
    summary: 'Drops the trip’s unpaid change of dates: its items are canceled and the car’s extra hold released',
    params: ReservationIdParams,
    response: ReservationResult,
    handler: async ({ params }, request) => ({
      reservation: await discardDateChange(changeDeps, await renterId(request), params.id),
    }),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/reservations/:id/end/preview',
    tag: 'reservations',
    summary:
      'What ending the trip now would charge: the car read now (battery, miles driven against the included miles), the time against the booked return, each fee and how much of it the deposit hold covers; changes nothing. 409 unless on rent',
    params: ReservationIdParams,
    response: EndTripPreview,
    handler: async ({ params }, request) => previewEndTrip(endTripDeps, await renterId(request), params.id),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/reservations/:id/end',
    tag: 'reservations',
    summary:
      'Ends a trip that is on rent: the car’s odometer and battery are recorded, the return’s fees (recharge, mileage overage, late) are taken from the deposit hold and the rest of it released, the key stops working; status Returned',
    params: ReservationIdParams,
    response: ReservationResult,
    handler: async ({ params }, request) => ({
      reservation: await endTrip(endTripDeps, await renterId(request), params.id),
    }),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/reservations/:id',
    tag: 'reservations',
    summary: "One of the signed-in renter's trips by its platform id",
    params: ReservationIdParams,
    response: ReservationResult,
    handler: async ({ params }, request) => ({
      reservation: await service.getReservation(deps, await renterId(request), params.id),
    }),
  });
}
