import type { FastifyInstance } from 'fastify';
import { DiscountApplyBody, ReservationWithSecret } from '@ampere/domain/contract/booking';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { requireRenter } from '../../http/session.ts';
import type { CancelRetiredCharges } from '../trips/checkout.ts';
import * as service from './service.ts';

export function discountRoutes(
  app: FastifyInstance,
  { db, clock, cancelRetired }: Deps & { cancelRetired: CancelRetiredCharges },
): void {
  route(app, {
    method: 'POST',
    url: '/api/v1/discounts/apply',
    tag: 'discounts',
    summary:
      "Applies a coupon code (any case) to one of the signed-in renter's trips: its percent off each pending rental day; a 422 naming code says why not",
    body: DiscountApplyBody,
    response: ReservationWithSecret,
    handler: async ({ body }, request) => {
      const renter = await requireRenter(db, clock, request);
      // The payment step makes the client secret for the new amount (spec 4: applying a discount replaces it).
      const reservation = await service.applyDiscount({ db, clock }, renter.id, body);
      await cancelRetired(renter.id);
      return { reservation, stripe: null };
    },
  });
}
