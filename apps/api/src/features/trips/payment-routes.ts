import type { FastifyInstance } from 'fastify';
import { PlatformIdBody, ReservationResult, ReservationWithSecret } from '@ampere/domain/contract/booking';
import { route } from '../../http/route.ts';

/** Where the browser says it has confirmed its payments with the provider (spec 7 lists the call without a path). */
export const CONFIRM_RESERVATION_PATH = '/api/v1/reservations/confirm';

/** Paying for a trip, through the trips door. Every call acts for the renter the session names. */
export function tripPaymentRoutes(app: FastifyInstance): void {
  route(app, {
    method: 'POST',
    url: '/api/v1/payments',
    tag: 'payments',
    summary:
      "Prepares paying for one of the signed-in renter's reservations: a charge of the pending line items (net of discounts) and, on a new reservation, the deposit hold; stripe carries their client secrets (null when there is nothing to confirm)",
    body: PlatformIdBody,
    response: ReservationWithSecret,
    auth: 'renter',
    handler: ({ body, renter }) => app.trips.pay(renter.id, body.platform_id),
  });
  route(app, {
    method: 'POST',
    url: CONFIRM_RESERVATION_PATH,
    tag: 'payments',
    summary:
      'Called by the browser right after it confirmed the payments with the provider: reads every payment of the reservation from the provider now (rather than waiting for the webhook) and returns the reservation, Pending once paid and its deposit held',
    body: PlatformIdBody,
    response: ReservationResult,
    auth: 'renter',
    handler: ({ body, renter }) => app.trips.confirmPayment(renter.id, body.platform_id),
  });
}
