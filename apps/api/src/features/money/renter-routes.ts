import type { FastifyInstance } from 'fastify';
import { ReservationIdParams } from '@ampere/domain/contract/booking';
import {
  ChargeEvidenceParams,
  ChargeParams,
  DisputeRequest,
  EvidenceLinkQuery,
  RENTER_CHARGE_ROUTES as R,
  RenterCharge,
  RenterCharges,
} from '@ampere/domain/contract/charges';
import type { Deps } from '../../deps.ts';
import { parseOrThrow, route } from '../../http/route.ts';
import { moneyDepsFor, openDispute, ownCharge, ownTripCharges, renterEvidenceFile } from './service.ts';

/**
 * The renter's charge page (decision 091): their trip's charges, one charge with its evidence, the
 * dispute, and the evidence files by signed addresses. Another renter's charge is a 404.
 */
export function renterChargeRoutes(app: FastifyInstance, deps: Deps): void {
  const money = moneyDepsFor(deps.db, app.trips.payments, deps.config);

  route(app, {
    ...R.tripCharges,
    tag: 'charges',
    summary: 'The charges posted on the signed-in renter’s trip after it, with their evidence and disputes',
    params: ReservationIdParams,
    response: RenterCharges,
    auth: 'renter',
    handler: async ({ params, renter }) => ({ charges: await ownTripCharges(money, renter.id, params.id) }),
  });

  route(app, {
    ...R.charge,
    tag: 'charges',
    summary:
      'One charge on the signed-in renter’s trip: amount, reason, evidence, and whether it can still be disputed',
    params: ChargeParams,
    response: RenterCharge,
    auth: 'renter',
    handler: ({ params, renter }) => ownCharge(money, renter.id, params.chargeId),
  });

  route(app, {
    ...R.dispute,
    tag: 'charges',
    summary: 'Dispute a charge within 72 hours of its posting, saying why; a charge not yet taken waits',
    params: ChargeParams,
    body: DisputeRequest,
    response: RenterCharge,
    auth: 'renter',
    handler: async ({ params, body, renter }) => {
      await openDispute(money, renter.id, params.chargeId, body.reason);
      return ownCharge(money, renter.id, params.chargeId);
    },
  });

  // The files behind the evidence: the address is signed for the renter, so an <img> loads it.
  app.get(R.evidenceFile.url, async (request, reply) => {
    const params = parseOrThrow(ChargeEvidenceParams, request.params, 'path');
    const query = parseOrThrow(EvidenceLinkQuery, request.query, 'query');
    const file = await renterEvidenceFile(money, { ...params, ...query });
    return reply
      .type(file.contentType)
      .header('cache-control', 'private, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(file.bytes);
  });
}
