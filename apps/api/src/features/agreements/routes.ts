import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AgreementCreateBody,
  AgreementIdParams,
  AgreementResult,
  SignedUrlResult,
} from '@ampere/domain/contract/booking';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as service from './service.ts';
import { startAgreementWorker } from './render-off-thread.ts';

/** What a signed document link carries besides the id; anything else about it is refused alike. */
const DocumentLinkQuery = z.object({
  expires: z.coerce.number().int().positive(),
  signature: z.string().min(1).max(100),
});

export function agreementRoutes(app: FastifyInstance, { db, clock, config }: Deps): void {
  startAgreementWorker();
  const deps = { db, clock, config };
  // Encapsulated so the hook below touches only these routes.
  app.register(async (scope) => {
    // route() answers one success status; signing a type the trip already has is a replay,
    // answered 200 with the existing agreement instead of 201.
    const replays = new WeakSet<FastifyRequest>();
    scope.addHook('onSend', async (request, reply) => {
      if (replays.has(request) && reply.statusCode === 201) reply.code(200);
    });

    route(scope, {
      method: 'POST',
      url: '/api/v1/agreements',
      tag: 'agreements',
      status: 201,
      summary:
        "Signs an agreement for the renter's trip and stores it as a PDF; signing a type the trip already has answers that one (200)",
      body: AgreementCreateBody,
      response: AgreementResult,
      auth: 'renter',
      handler: async ({ body, renter }, request) => {
        const { agreement, created } = await service.signAgreement(deps, renter.id, body);
        if (!created) replays.add(request);
        return { agreement };
      },
    });

    route(scope, {
      method: 'GET',
      url: '/api/v1/agreements/:id/signed_url',
      tag: 'agreements',
      summary:
        "A link to the renter's own agreement document that works for 15 minutes without a session (to open in a new tab)",
      params: AgreementIdParams,
      response: SignedUrlResult,
      auth: 'renter',
      handler: ({ params, renter }, _request, reply) => {
        reply.header('cache-control', 'private, no-store');
        return service.createSignedUrl(deps, renter.id, params.id);
      },
    });

    // The PDF itself: no session (a new tab carries no header), the link's signature is the key.
    scope.get('/api/v1/agreements/:id/document', async (request, reply) => {
      const params = AgreementIdParams.safeParse(request.params);
      const query = DocumentLinkQuery.safeParse(request.query);
      if (!params.success || !query.success) throw new AppError('FORBIDDEN', service.LINK_REFUSED);
      const doc = await service.openDocument(deps, params.data.id, query.data.expires, query.data.signature);
      return (
        reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `inline; filename="${doc.fileName}"`)
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          // The link is a credential for 15 minutes: never pass it on in a Referer.
          .header('referrer-policy', 'no-referrer')
          .send(doc.pdf)
      );
    });
  });
}
