import type { FastifyInstance, FastifyReply } from 'fastify';
import { ReservationIdParams } from '@ampere/domain/contract/booking';
import { Receipt, ReceiptLink, ReceiptLinkRevoked, ReceiptTokenQuery } from '@ampere/domain/contract/receipt';
import { parseOrThrow, route } from '../../http/route.ts';
import { authenticate } from '../../http/session.ts';
import * as service from './service.ts';

/** Spec 7's path: public, the token is the capability. */
const TOKEN_RECEIPT_URL = '/api/admin/v1/transactions/receipts';

/** A receipt is nobody's business but its holder's: not cached along the way, not indexed, the link not passed on in a Referer. */
function privately(reply: FastifyReply): FastifyReply {
  return reply
    .header('cache-control', 'private, no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex');
}

function sendPdf(reply: FastifyReply, doc: { pdf: Buffer; fileName: string }) {
  return privately(reply)
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${doc.fileName}"`)
    .header('x-content-type-options', 'nosniff')
    .send(doc.pdf);
}

/** A trip's receipt for its renter and for anyone holding its receipt link, as JSON and as a PDF; the renter's link calls. */
export function receiptRoutes(app: FastifyInstance, deps: service.ReceiptDeps): void {
  route(app, {
    method: 'GET',
    url: TOKEN_RECEIPT_URL,
    tag: 'receipts',
    limit: 'lookups',
    summary:
      "A trip's receipt by its receipt link's token (no session needed): the trip's rides and the transactions on its receipt cards, with the car, dates, place, waiver and total. An unknown or revoked token is a 404",
    query: ReceiptTokenQuery,
    response: Receipt,
    auth: 'optional',
    handler: ({ query, renter }, _request, reply) => {
      privately(reply);
      return service.receiptByToken(deps, query.token, renter?.id ?? null);
    },
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/reservations/:id/receipt',
    tag: 'receipts',
    summary: "The signed-in renter's own trip's receipt, with whether a receipt link is live",
    params: ReservationIdParams,
    response: Receipt,
    auth: 'renter',
    handler: ({ params, renter }, _request, reply) => {
      privately(reply);
      return service.receiptForOwner(deps, renter.id, params.id);
    },
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/reservations/:id/receipt-token',
    tag: 'receipts',
    status: 201,
    summary:
      "Makes a link that opens the trip's receipt without signing in (/receipt?token=…), shown this once; any earlier link stops working. 409 before the trip is paid",
    params: ReservationIdParams,
    response: ReceiptLink,
    auth: 'renter',
    handler: ({ params, renter }, _request, reply) => {
      privately(reply);
      return service.createLink(deps, renter.id, params.id);
    },
  });
  route(app, {
    method: 'DELETE',
    url: '/api/v1/reservations/:id/receipt-token',
    tag: 'receipts',
    summary: "Revokes the trip's receipt link: it answers 404 from then on",
    params: ReservationIdParams,
    response: ReceiptLinkRevoked,
    auth: 'renter',
    handler: async ({ params, renter }) => {
      await service.revokeLink(deps, renter.id, params.id);
      return { share_link: null };
    },
  });

  // The PDFs (not JSON, so not in the OpenAPI document): a download beside Print on either page.
  app.get(`${TOKEN_RECEIPT_URL}/pdf`, { config: { limit: 'lookups' } }, async (request, reply) => {
    const { token } = parseOrThrow(ReceiptTokenQuery, request.query, 'query');
    return sendPdf(reply, await service.tokenReceiptPdf(deps, token));
  });
  app.get('/api/v1/reservations/:id/receipt/pdf', async (request, reply) => {
    const { id } = parseOrThrow(ReservationIdParams, request.params, 'path');
    const renter = await authenticate(request, 'renter');
    return sendPdf(reply, await service.ownerReceiptPdf(deps, renter.id, id));
  });
}
