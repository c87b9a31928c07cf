import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AcceptDispute,
  CaptureDeposit,
  ChargePosted,
  DepositSettled,
  DepositsPage,
  DepositsQuery,
  DisputeDecided,
  DisputeParams,
  DisputeQueue,
  DisputesQuery,
  EvidenceParams,
  EvidenceUploadQuery,
  EvidenceUploaded,
  FeeCatalogue,
  NewCharge,
  NewRefund,
  OPS_MONEY_ROUTES as R,
  PaymentParams,
  RefundIssued,
  RejectDispute,
  ReleaseDeposit,
  TollImportQuery,
  TollImportResult,
  TripIdParams,
  TripMoney,
} from '@ampere/domain/contract/ops-money';
import { EVIDENCE_MAX_BYTES } from '@ampere/domain/charges';
import type { Deps } from '../../deps.ts';
import { invalid } from '../../http/errors.ts';
import { opsRoute } from '../../http/ops-route.ts';
import { evidenceFileForStaff, uploadEvidence } from './evidence.ts';
import * as service from './service.ts';
import { importTolls } from './tolls.ts';

/** The largest toll or ticket statement one import takes. */
const STATEMENT_MAX_BYTES = 2 * 1024 * 1024;

/**
 * The console's money calls (issue 30 §2 and §3, decisions 091–093; the list in OPS_MONEY_ROUTES):
 * the fee catalogue, a trip's charges and payments, evidence, charges, disputes, deposits, refunds
 * and the toll import. Registered in a scope of their own for their bodies: files (images, PDFs)
 * and CSV text.
 */
export function moneyRoutes(scope: FastifyInstance, deps: Deps): void {
  const money = service.moneyDepsFor(deps.db, scope.trips.payments, deps.config);
  scope.register(async (own) => {
    own.addContentTypeParser(
      ['application/pdf'],
      { parseAs: 'buffer', bodyLimit: EVIDENCE_MAX_BYTES * 2 },
      (_request, body, done) => done(null, body),
    );
    own.addContentTypeParser(
      ['text/csv', 'text/plain', 'application/csv'],
      { parseAs: 'string', bodyLimit: STATEMENT_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );

    opsRoute(own, {
      ...R.fees,
      summary: 'The fee catalogue: every fee a person can post, its price and the evidence it needs',
      response: FeeCatalogue,
      handler: () => service.feeCatalogue(),
    });

    opsRoute(own, {
      ...R.tripCharges,
      summary: 'A trip’s money: its charges with evidence and disputes, its deposit hold, payments and refunds',
      params: TripIdParams,
      response: TripMoney,
      handler: ({ params, ops }) => service.tripMoney(money, ops, params.tripId),
    });

    opsRoute(own, {
      ...R.uploadEvidence,
      summary: 'Upload a photo or document (JPEG, PNG, WebP or PDF) as evidence for a charge on the trip',
      params: TripIdParams,
      query: EvidenceUploadQuery,
      response: EvidenceUploaded,
      status: 201,
      bodyLimit: EVIDENCE_MAX_BYTES * 2,
      handler: ({ params, query, ops }, request) => {
        if (!Buffer.isBuffer(request.body))
          throw invalid(
            'Send the file itself as the body, with its type (image/jpeg, image/png, image/webp or application/pdf).',
            'body',
          );
        return uploadEvidence(money, ops, {
          tripId: params.tripId,
          kind: query.kind,
          label: query.label,
          bytes: request.body,
        });
      },
    });

    opsRoute(own, {
      ...R.evidenceFile,
      summary: 'An evidence file, as uploaded',
      params: EvidenceParams,
      response: z.any(),
      handler: async ({ params, ops }, _request, reply) => {
        const file = await evidenceFileForStaff(money, ops, params.evidenceId);
        return reply
          .type(file.contentType)
          .header('cache-control', 'private, max-age=300')
          .header('x-content-type-options', 'nosniff')
          .send(file.bytes);
      },
    });

    opsRoute(own, {
      ...R.postCharge,
      summary: 'Post a charge after the trip, priced by the catalogue; evidence is required',
      params: TripIdParams,
      body: NewCharge,
      response: ChargePosted,
      status: 201,
      handler: async ({ params, body, ops }) => ({
        charges: await service.postCharge(money, ops, params.tripId, body),
      }),
    });

    opsRoute(own, {
      ...R.disputes,
      summary: 'The dispute queue: open disputes oldest first, or decided ones',
      query: DisputesQuery,
      response: DisputeQueue,
      handler: ({ query, ops }) => service.disputeQueue(money, ops, query),
    });

    opsRoute(own, {
      ...R.acceptDispute,
      summary: 'Accept a dispute: what was taken of the charge is refunded, and nothing more is taken',
      params: DisputeParams,
      body: AcceptDispute,
      response: DisputeDecided,
      handler: ({ params, body, ops }) => service.decideDispute(money, ops, params.disputeId, 'accepted', body.reason),
    });

    opsRoute(own, {
      ...R.rejectDispute,
      summary: 'Reject a dispute with a written reason the renter reads: the charge stands',
      params: DisputeParams,
      body: RejectDispute,
      response: DisputeDecided,
      handler: ({ params, body, ops }) => service.decideDispute(money, ops, params.disputeId, 'rejected', body.reason),
    });

    opsRoute(own, {
      ...R.deposits,
      summary: 'Deposit holds: status, amount, card brand and last four, expiry, re-authorisation and review',
      query: DepositsQuery,
      response: DepositsPage,
      handler: ({ query, ops }) => service.listDeposits(money, ops, query),
    });

    opsRoute(own, {
      ...R.releaseDeposit,
      summary: 'Settle a returned trip’s hold now: what is linked to it is taken, the rest released',
      params: PaymentParams,
      body: ReleaseDeposit,
      response: DepositSettled,
      handler: ({ params, body, ops }) => service.releaseDeposit(money, ops, params.paymentId, body.reason),
    });

    opsRoute(own, {
      ...R.captureDeposit,
      summary: 'Capture part of a returned trip’s hold for a reason with its evidence (a charge of the catalogue)',
      params: PaymentParams,
      body: CaptureDeposit,
      response: DepositSettled,
      handler: ({ params, body, ops }) => service.captureDeposit(money, ops, params.paymentId, body),
    });

    opsRoute(own, {
      ...R.refund,
      summary: 'Refund a payment in full or in part, with a reason; each role refunds up to its limit',
      params: PaymentParams,
      body: NewRefund,
      response: RefundIssued,
      status: 201,
      handler: ({ params, body, ops }) => service.issueRefund(money, ops, params.paymentId, body),
    });

    opsRoute(own, {
      ...R.importTolls,
      summary:
        'Import tolls and tickets from a CSV statement: a dry run lists matches and unmatched rows; posting is all or nothing',
      query: TollImportQuery,
      body: z.string({ error: 'Send the statement as the body, with Content-Type text/csv.' }),
      response: TollImportResult,
      bodyLimit: STATEMENT_MAX_BYTES,
      handler: ({ query, body, ops }) => importTolls(money, ops, body, query.dryRun),
    });
  });
}
