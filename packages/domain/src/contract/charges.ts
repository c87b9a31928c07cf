import { z } from './zod.ts';
import { CHARGE_STATUSES, DISPUTE_OUTCOMES, DISPUTE_REASON_MAX, DISPUTE_REASON_MIN } from '../charges.ts';
import { EVIDENCE_KINDS, FEE_TYPE_IDS } from '../fees.ts';

/**
 * The renter's charge page (issue 30 §2, decision 091): a charge posted after a trip, with its
 * evidence, the dispute the renter may open within the window, and its outcome. Signed in, own
 * trips only: another renter's charge answers 404.
 *
 * GET  /api/v1/reservations/:id/charges   → RenterCharges (the trip's charges)
 * GET  /api/v1/charges/:chargeId          → RenterCharge
 * POST /api/v1/charges/:chargeId/dispute  body DisputeRequest → RenterCharge
 *   after the window → 422, already disputed → 409, each with a message to show.
 * GET  /api/v1/charges/:chargeId/evidence/:evidenceId?expires=…&signature=… → the file (the URLs
 *   in `evidence[].url` are signed for the renter and work in an <img> or a link for a while).
 *
 * The web page that shows a charge (the link in the text and email, `chargeLink` in messages.ts):
 * /trip/:reference/charges/:chargeId
 */
export const RENTER_CHARGE_ROUTES = {
  tripCharges: { method: 'GET', url: '/api/v1/reservations/:id/charges' },
  charge: { method: 'GET', url: '/api/v1/charges/:chargeId' },
  dispute: { method: 'POST', url: '/api/v1/charges/:chargeId/dispute' },
  evidenceFile: { method: 'GET', url: '/api/v1/charges/:chargeId/evidence/:evidenceId' },
} as const;

/** The renter app's page for one charge; `reference` is the trip's reference (platform id). */
export const chargePagePath = (reference: string, chargeId: string): string =>
  `/trip/${encodeURIComponent(reference)}/charges/${encodeURIComponent(chargeId)}`;

export const ChargeParams = z.object({ chargeId: z.uuid() }).strict();
export const ChargeEvidenceParams = z.object({ chargeId: z.uuid(), evidenceId: z.uuid() }).strict();
export const EvidenceLinkQuery = z
  .object({
    expires: z.coerce.number().int().positive(),
    signature: z.string().min(1).max(200),
  })
  .strict();

export const RenterEvidence = z.object({
  id: z.string(),
  kind: z.enum(EVIDENCE_KINDS),
  label: z.string(),
  /** A reading's value, e.g. '12 %'; null for a file. */
  value: z.string().nullable(),
  contentType: z.string().nullable(),
  /** A signed address the renter's browser may load; null for a reading. */
  url: z.string().nullable(),
});

export const RenterDispute = z.object({
  text: z.string(),
  openedAt: z.string(),
  outcome: z.enum(DISPUTE_OUTCOMES).nullable(),
  /** Staff's reason, shown to the renter once decided. */
  staffReason: z.string().nullable(),
  decidedAt: z.string().nullable(),
});

export const RenterCharge = z.object({
  id: z.string(),
  tripId: z.string(),
  tripReference: z.string(),
  /** The pickup place's zone: times are shown on its clock. */
  timezone: z.string(),
  type: z.enum(FEE_TYPE_IDS),
  /** The catalogue's label, e.g. 'Cleaning Fee'. */
  label: z.string(),
  /** The catalogue's sentence on when it applies. */
  when: z.string(),
  reason: z.string(),
  quantity: z.number().int(),
  unitCents: z.number().int(),
  amount: z.number().int(),
  status: z.enum(CHARGE_STATUSES),
  statusLabel: z.string(),
  postedAt: z.string(),
  /**
   * How it stands (`chargeLines` words them): on the deposit hold, taken from it when the deposit
   * review settles (nothing on the card, not owed); taken from the deposit; charged to the card
   * (last four); owed (waiting on the card, or on a dispute); refunded.
   */
  onHoldCents: z.number().int(),
  fromDepositCents: z.number().int(),
  toCardCents: z.number().int(),
  owedCents: z.number().int(),
  refundedCents: z.number().int(),
  cardLast4: z.string().nullable(),
  occurredAt: z.string().nullable(),
  externalReference: z.string().nullable(),
  disputeOpenUntil: z.string(),
  canDispute: z.boolean(),
  dispute: RenterDispute.nullable(),
  evidence: z.array(RenterEvidence),
});
export type RenterCharge = z.infer<typeof RenterCharge>;

export const RenterCharges = z.object({ charges: z.array(RenterCharge) });

export const DisputeRequest = z
  .object({
    reason: z
      .string({ error: 'is required' })
      .trim()
      .min(DISPUTE_REASON_MIN, `must be at least ${DISPUTE_REASON_MIN} characters: tell us what is wrong`)
      .max(DISPUTE_REASON_MAX),
  })
  .strict();
