import type { FastifyInstance } from 'fastify';
import { DiscountApplyBody, ReservationWithSecret } from '@ampere/domain/contract/booking';
import { route } from '../../http/route.ts';

/** A coupon on a trip: it re-prices the trip, so it goes through the trips door. */
export function tripDiscountRoutes(app: FastifyInstance): void {
  route(app, {
    method: 'POST',
    url: '/api/v1/discounts/apply',
    tag: 'discounts',
    summary:
      "Applies a coupon code (any case) to one of the signed-in renter's trips: its percent off each pending rental day; a 422 naming code says why not",
    body: DiscountApplyBody,
    response: ReservationWithSecret,
    auth: 'renter',
    handler: async ({ body, renter }) => {
      // The payment step makes the client secret for the new amount (spec 4: applying a discount replaces it).
      const reservation = await app.trips.applyDiscount(renter.id, body);
      return { reservation, stripe: null };
    },
  });
}
