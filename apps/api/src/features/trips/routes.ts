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
import { route } from '../../http/route.ts';

/**
 * The renter's trips, through the trips door (`app.trips`). Every call acts for the renter the
 * session names (the route's auth hook); another renter's trip is a 404.
 */
export function reservationRoutes(app: FastifyInstance): void {
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
    auth: 'renter',
    // Under an Idempotency-Key, db is the one transaction (and the embedded database's one connection).
    handler: async ({ body, renter, db }) => ({ reservation: await app.trips.book(renter.id, body, db) }),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/reservations',
    tag: 'reservations',
    summary:
      "The signed-in renter's trips: upcoming (Started and Pending), active (On Rent), past (Returned) and canceled",
    response: ReservationLists,
    auth: 'renter',
    handler: ({ renter }) => app.trips.list(renter.id),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/reservations/conflict-check',
    tag: 'reservations',
    summary:
      "Active reservations of a car overlapping a period (local to vehicleTimezone), leaving out the renter's own trip platform_id",
    body: ConflictCheckBody,
    response: ConflictCheckResult,
    auth: 'renter',
    handler: ({ body, renter }) => app.trips.conflictCheck(renter.id, body),
  });
  route(app, {
    method: 'PATCH',
    url: '/api/v1/reservations/addons',
    tag: 'reservations',
    summary:
      "Sets a trip's pending add-ons to exactly addon_ids (paid ones stay) and recomputes the tax; while Started or Pending",
    body: AddonsPatchBody,
    response: ReservationWithSecret,
    auth: 'renter',
    handler: async ({ body, renter }) => {
      const reservation = await app.trips.setAddons(renter.id, body.platform_id, body.addon_ids);
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
    auth: 'renter',
    handler: ({ body, renter }) => app.trips.checkEligibility(renter.id, body.platform_id),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/reservations/:id/cancel',
    tag: 'reservations',
    summary:
      'Cancels the trip while cancellation is free (until one day before pickup, on the pickup place’s clock): the deposit hold is released, what was charged is refunded in full, the key stops working',
    params: ReservationIdParams,
    response: ReservationResult,
    auth: 'renter',
    handler: async ({ params, renter }) => ({ reservation: await app.trips.cancel(renter.id, params.id) }),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/reservations/:id/change/preview',
    tag: 'reservations',
    summary:
      'What moving the pickup earlier or the return later would add (rental days, add-ons, tax) and whether the car is free for it; changes nothing',
    params: ReservationIdParams,
    body: DateChangeBody,
    response: DateChangePreview,
    auth: 'renter',
    handler: ({ params, body, renter }) => app.trips.previewChange(renter.id, params.id, body),
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
    auth: 'renter',
    handler: async ({ params, body, renter }) => ({
      reservation: await app.trips.requestChange(renter.id, params.id, body),
    }),
  });
  route(app, {
    method: 'DELETE',
    url: '/api/v1/reservations/:id/change',
    tag: 'reservations',
    summary: 'Drops the trip’s unpaid change of dates: its items are canceled and the car’s extra hold released',
    params: ReservationIdParams,
    response: ReservationResult,
    auth: 'renter',
    handler: async ({ params, renter }) => ({ reservation: await app.trips.discardChange(renter.id, params.id) }),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/reservations/:id/end/preview',
    tag: 'reservations',
    summary:
      'What ending the trip now would charge: the car read now (battery, miles driven against the included miles), the time against the booked return, each fee and how much of it the deposit hold covers; changes nothing. 409 unless on rent',
    params: ReservationIdParams,
    response: EndTripPreview,
    auth: 'renter',
    handler: ({ params, renter }) => app.trips.previewEnd(renter.id, params.id),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/reservations/:id/end',
    tag: 'reservations',
    summary:
      'Ends a trip that is on rent: the car’s odometer and battery are recorded, the return’s fees (recharge, mileage overage, late) are taken from the deposit hold and the rest of it released, the key stops working; status Returned',
    params: ReservationIdParams,
    response: ReservationResult,
    auth: 'renter',
    handler: async ({ params, renter }) => ({ reservation: await app.trips.end(renter.id, params.id) }),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/reservations/:id',
    tag: 'reservations',
    summary: "One of the signed-in renter's trips by its platform id",
    params: ReservationIdParams,
    response: ReservationResult,
    auth: 'renter',
    handler: async ({ params, renter }) => ({ reservation: await app.trips.get(renter.id, params.id) }),
  });
}
