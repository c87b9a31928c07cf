import { z } from './zod.ts';
import {
  CHARGE_STATUSES,
  DEPOSIT_STATUSES,
  DISPUTE_DECISION_REASON_MIN,
  DISPUTE_OUTCOMES,
  REFUND_REASON_MIN,
} from '../charges.ts';
import { CHARGE_KINDS, EVIDENCE_KINDS, FEE_TYPE_IDS, FEE_UNITS } from '../fees.ts';
import type { StaffAction } from '../staff.ts';
import { INT4_MAX } from './common.ts';

/**
 * The operator console's money calls (issue 30 §2 and §3, decisions 091–093): the fee catalogue,
 * charges after a trip with their evidence, the dispute queue, the deposit holds, refunds, and the
 * toll and ticket CSV import. All under OPS_API; a trip, charge, dispute, hold or payment of a
 * location the staff member does not work at answers 404. Every write is audited.
 *
 * Money is whole cents. A card is only ever its brand and last four digits.
 */

/** Every call: method, path under OPS_API, and the permission it needs. */
export const OPS_MONEY_ROUTES = {
  fees: { method: 'GET', url: '/fees', action: 'trips.read' },
  tripCharges: { method: 'GET', url: '/trips/:tripId/charges', action: 'trips.read' },
  /** Body: the file itself (image/jpeg, image/png, image/webp, application/pdf), as fetch sends a File. */
  uploadEvidence: { method: 'POST', url: '/trips/:tripId/evidence', action: 'charges.post' },
  /** Staff's view of an evidence file (the bytes, with its content type). */
  evidenceFile: { method: 'GET', url: '/evidence/:evidenceId', action: 'trips.read' },
  postCharge: { method: 'POST', url: '/trips/:tripId/charges', action: 'charges.post' },
  disputes: { method: 'GET', url: '/disputes', action: 'trips.read' },
  acceptDispute: { method: 'POST', url: '/disputes/:disputeId/accept', action: 'disputes.decide' },
  rejectDispute: { method: 'POST', url: '/disputes/:disputeId/reject', action: 'disputes.decide' },
  deposits: { method: 'GET', url: '/deposits', action: 'trips.read' },
  releaseDeposit: { method: 'POST', url: '/deposits/:paymentId/release', action: 'deposits.release' },
  captureDeposit: { method: 'POST', url: '/deposits/:paymentId/capture', action: 'deposits.capture' },
  refund: { method: 'POST', url: '/payments/:paymentId/refunds', action: 'refunds.issue' },
  /** Body: the CSV text (text/csv). `?dryRun=true` lists matched and unmatched rows and posts nothing. */
  importTolls: { method: 'POST', url: '/tolls/import', action: 'charges.post' },
} as const satisfies Record<string, { method: 'GET' | 'POST'; url: string; action: StaffAction }>;

const Uuid = z.uuid();
const LocationId = z.coerce.number().int().positive().max(INT4_MAX);
const CentsIn = z.number().int().positive().max(10_000_000);

export const TripIdParams = z.object({ tripId: Uuid }).strict();
export const EvidenceParams = z.object({ evidenceId: Uuid }).strict();
export const DisputeParams = z.object({ disputeId: Uuid }).strict();
export const PaymentParams = z.object({ paymentId: Uuid }).strict();

// ---- the fee catalogue ----

export const FeePriceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fixed'), cents: z.number() }),
  z.object({ kind: z.literal('atCost'), limitCents: z.number() }),
  z.object({ kind: z.literal('assessed'), maxCents: z.number() }),
  z.object({
    kind: z.literal('banded'),
    of: z.enum(['battery %', 'miles']),
    bands: z.array(z.object({ from: z.number(), to: z.number(), cents: z.number() })),
  }),
]);

export const FeeTypeSchema = z.object({
  id: z.enum(FEE_TYPE_IDS),
  label: z.string(),
  when: z.string(),
  unit: z.enum(FEE_UNITS),
  charge: z.enum(CHARGE_KINDS),
  price: FeePriceSchema,
  /** Any one of these kinds of evidence lets it be posted. */
  evidence: z.array(z.enum(EVIDENCE_KINDS)),
  /** The fee posted with it, e.g. a ticket's administration fee. */
  administration: z.enum(FEE_TYPE_IDS).nullable(),
});
export type FeeTypeSchema = z.infer<typeof FeeTypeSchema>;

/** GET /fees: the fees a person can post (the return's automatic ones are left out). */
export const FeeCatalogue = z.object({ fees: z.array(FeeTypeSchema) });

// ---- evidence ----

export const EvidenceKindSchema = z.enum(EVIDENCE_KINDS);

/** A piece of evidence as staff see it. `url` opens the file in the console (a reading has none). */
export const Evidence = z.object({
  id: z.string(),
  kind: EvidenceKindSchema,
  /** What it shows, e.g. 'Rear seat', 'Odometer at return', 'Toll statement row 4'. */
  label: z.string(),
  /** A reading's value with its unit, e.g. '12 %', '48,210 mi'; null for a file. */
  value: z.string().nullable(),
  contentType: z.string().nullable(),
  bytes: z.number().int().nullable(),
  url: z.string().nullable(),
  /** The inspection photo this links to instead of a file of its own (its `url` is the photo's). */
  inspectionPhotoId: z.string().nullable(),
  uploadedAt: z.string(),
});
export type Evidence = z.infer<typeof Evidence>;

/** What POST /trips/:tripId/evidence answers: the evidence, ready to name in a charge's `evidenceIds`. */
export const EvidenceUploaded = Evidence;

/** POST /trips/:tripId/evidence query: what the file is. */
export const EvidenceUploadQuery = z
  .object({
    kind: z.enum(['photo', 'document']),
    label: z.string().trim().min(1).max(120).optional(),
  })
  .strict();

export const ReadingInput = z
  .object({
    label: z.string().trim().min(1).max(120),
    value: z.string().trim().min(1).max(120),
  })
  .strict();

/** The evidence a new charge or capture links to: files uploaded before, readings, inspection photos. */
const EvidenceRefs = {
  evidenceIds: z.array(Uuid).max(30).default([]),
  readings: z.array(ReadingInput).max(10).default([]),
  inspectionPhotoIds: z.array(Uuid).max(30).default([]),
};

// ---- charges ----

export const ChargeStatusSchema = z.enum(CHARGE_STATUSES);

export const Dispute = z.object({
  id: z.string(),
  chargeId: z.string(),
  /** The renter's words. */
  text: z.string(),
  openedAt: z.string(),
  outcome: z.enum(DISPUTE_OUTCOMES).nullable(),
  /** Staff's written reason (required to reject). */
  staffReason: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedByName: z.string().nullable(),
});
export type Dispute = z.infer<typeof Dispute>;

export const Charge = z.object({
  id: z.string(),
  tripId: z.string(),
  tripReference: z.string(),
  type: z.enum(FEE_TYPE_IDS),
  label: z.string(),
  quantity: z.number().int(),
  unitCents: z.number().int(),
  amount: z.number().int(),
  reason: z.string(),
  status: ChargeStatusSchema,
  statusLabel: z.string(),
  postedAt: z.string(),
  postedBy: z.string().nullable(),
  postedByName: z.string().nullable(),
  /** Of the amount: linked to the deposit hold (taken when it settles), taken from it, charged to the card, owed, refunded. */
  onHoldCents: z.number().int(),
  fromDepositCents: z.number().int(),
  toCardCents: z.number().int(),
  owedCents: z.number().int(),
  refundedCents: z.number().int(),
  /** The card the money moved on, last four only. */
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
  /** The charge this one administers (a ticket's administration fee names its ticket); null otherwise. */
  administrationOf: z.string().nullable(),
  /** The toll authority's or issuer's reference, from the CSV import. */
  externalReference: z.string().nullable(),
  /** When a toll or ticket happened (from the CSV). */
  occurredAt: z.string().nullable(),
  disputeOpenUntil: z.string(),
  dispute: Dispute.nullable(),
  evidence: z.array(Evidence),
});
export type Charge = z.infer<typeof Charge>;

/** POST /trips/:tripId/charges. No evidence of a kind the fee accepts → 422 with field 'evidence'. */
export const NewCharge = z
  .object({
    type: z.enum(FEE_TYPE_IDS),
    /** Miles, days, occurrences; the reading for a banded fee. */
    quantity: z.number().int().min(1).max(100_000).optional(),
    /** The billed amount for an at-cost fee; the assessed amount for damage or other. */
    cents: CentsIn.optional(),
    reason: z.string().trim().min(3).max(1_000),
    ...EvidenceRefs,
  })
  .strict();
export type NewCharge = z.input<typeof NewCharge>;

/** What posting answers: the charge, and its administration fee when the fee brings one. */
export const ChargePosted = z.object({ charges: z.array(Charge) });

// ---- deposits ----

export const DepositStatusSchema = z.enum(DEPOSIT_STATUSES);

export const DepositHold = z.object({
  paymentId: z.string(),
  tripId: z.string(),
  tripReference: z.string(),
  locationId: z.string(),
  renterName: z.string().nullable(),
  status: DepositStatusSchema,
  statusLabel: z.string(),
  /** What was authorised. */
  amount: z.number().int(),
  /** What the charges linked to it add up to (taken at settlement). */
  linkedCents: z.number().int(),
  capturedCents: z.number().int(),
  refundedCents: z.number().int(),
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
  placedAt: z.string(),
  /** When the card network lets the authorisation lapse. */
  expiresAt: z.string().nullable(),
  /** When the hold is renewed before it lapses (trips still out), or null. */
  reauthoriseAt: z.string().nullable(),
  /** After a return: when the review window ends and the hold settles by itself. */
  reviewEndsAt: z.string().nullable(),
  /** When captured or released. */
  settledAt: z.string().nullable(),
});
export type DepositHold = z.infer<typeof DepositHold>;

export const DepositsQuery = z
  .object({
    locationId: LocationId.optional(),
    status: DepositStatusSchema.optional(),
    tripId: Uuid.optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();

export const DepositsPage = z.object({ deposits: z.array(DepositHold), total: z.number().int() });

/** POST /deposits/:paymentId/release: settle now (take what is linked, release the rest). */
export const ReleaseDeposit = z.object({ reason: z.string().trim().max(500).default('') }).strict();

/**
 * POST /deposits/:paymentId/capture: take part of the hold for a reason with its evidence. It posts
 * a charge of `type` (default 'miscellaneous', priced by the catalogue) and settles the hold at once.
 */
export const CaptureDeposit = z
  .object({
    type: z.enum(FEE_TYPE_IDS).default('miscellaneous'),
    quantity: z.number().int().min(1).max(100_000).optional(),
    cents: CentsIn.optional(),
    reason: z.string().trim().min(3).max(1_000),
    ...EvidenceRefs,
  })
  .strict();

export const DepositSettled = z.object({ deposit: DepositHold, charges: z.array(Charge) });

// ---- payments and refunds ----

export const TripPayment = z.object({
  paymentId: z.string(),
  kind: z.enum(['CHARGE', 'DEPOSIT_HOLD']),
  /** What it is for: 'Booking', 'Deposit', 'Charge: Cleaning Fee', … */
  label: z.string(),
  /** The provider's status, as it wrote it. */
  status: z.string(),
  /** What staff read for it ('Held (not yet taken)', 'Paid', 'Partly refunded', …): `paymentStatusWords`. */
  statusLabel: z.string(),
  amount: z.number().int(),
  capturedCents: z.number().int(),
  refundedCents: z.number().int(),
  refundableCents: z.number().int(),
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
  at: z.string(),
});
export type TripPayment = z.infer<typeof TripPayment>;

export const Refund = z.object({
  id: z.string(),
  paymentId: z.string(),
  tripId: z.string(),
  amount: z.number().int(),
  reason: z.string(),
  issuedBy: z.string().nullable(),
  issuedByName: z.string().nullable(),
  /** Set when the refund came from an accepted dispute. */
  disputeId: z.string().nullable(),
  createdAt: z.string(),
});
export type Refund = z.infer<typeof Refund>;

/** POST /payments/:paymentId/refunds: `cents` omitted refunds all that is left. Over the role's limit → 403. */
export const NewRefund = z
  .object({
    cents: CentsIn.optional(),
    reason: z.string().trim().min(REFUND_REASON_MIN).max(1_000),
  })
  .strict();

export const RefundIssued = z.object({ refund: Refund, payment: TripPayment });

/** The books after the action: what the provider kept, what the ledger says was paid, the receipt's total. */
export const MoneyBooks = z.object({ gatewayKeptCents: z.number().int(), ledgerPaidCents: z.number().int() });

/** GET /trips/:tripId/charges: everything money about one trip for the console's trip page. */
export const TripMoney = z.object({
  tripId: z.string(),
  tripReference: z.string(),
  locationId: z.string(),
  timezone: z.string(),
  status: z.string(),
  returnedAt: z.string().nullable(),
  charges: z.array(Charge),
  deposit: DepositHold.nullable(),
  payments: z.array(TripPayment),
  refunds: z.array(Refund),
  books: MoneyBooks,
  /** The signed-in staff member's refund limit in cents; null: none. */
  refundLimitCents: z.number().int().nullable(),
});
export type TripMoney = z.infer<typeof TripMoney>;

// ---- the dispute queue ----

export const DisputesQuery = z
  .object({
    state: z.enum(['open', 'decided']).default('open'),
    locationId: LocationId.optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();

export const DisputeQueueItem = z.object({
  dispute: Dispute,
  charge: Charge,
  locationId: z.string(),
  renterName: z.string().nullable(),
});
export const DisputeQueue = z.object({ items: z.array(DisputeQueueItem), total: z.number().int() });

/** POST /disputes/:id/accept: refunds what was taken of the charge; a reason is optional. */
export const AcceptDispute = z.object({ reason: z.string().trim().max(1_000).default('') }).strict();
/** POST /disputes/:id/reject: the charge stands; a written reason the renter reads is required. */
export const RejectDispute = z
  .object({ reason: z.string().trim().min(DISPUTE_DECISION_REASON_MIN).max(1_000) })
  .strict();

export const DisputeDecided = z.object({ dispute: Dispute, charge: Charge, refund: Refund.nullable() });

// ---- toll and ticket import ----

export const TollImportQuery = z
  .object({
    dryRun: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
  })
  .strict();

export const TollMatched = z.object({
  row: z.number().int(),
  type: z.enum(['toll', 'ticket']),
  tripId: z.string(),
  tripReference: z.string(),
  vin: z.string(),
  plate: z.string().nullable(),
  /** The instant of the toll or ticket; shown on the trip's lot's clock (`timezone`), as the console shows every time. */
  at: z.string(),
  /** The trip's pickup location's time zone. */
  timezone: z.string(),
  /** At cost. */
  cents: z.number().int(),
  /** A ticket's administration fee posted with it; 0 for a toll. */
  administrationCents: z.number().int(),
  reference: z.string(),
  description: z.string(),
});

export const TollUnmatched = z.object({
  row: z.number().int(),
  /** The row as written. */
  line: z.string(),
  /** The row's time exactly as the statement wrote it (with its own offset); null when the row has none. */
  statedAt: z.string().nullable(),
  reason: z.string(),
});

/** Posting is all or nothing: any unmatched or invalid row and nothing is posted (`posted: false`). */
export const TollImportResult = z.object({
  dryRun: z.boolean(),
  posted: z.boolean(),
  matched: z.array(TollMatched),
  unmatched: z.array(TollUnmatched),
  /** The charges posted (empty on a dry run). */
  chargeIds: z.array(z.string()),
  totalCents: z.number().int(),
});
export type TollImportResult = z.infer<typeof TollImportResult>;
