import { z } from './zod.ts';
import { RESERVATION_STATUSES } from '../constants.ts';
import { REVIEW_DECISIONS, REVIEW_SUBJECTS } from '../renter-review.ts';

/**
 * The console's renters (issue 30 §4, decisions 094 and 095): the review queue, staff decisions on
 * checks, the do-not-rent list, a renter's page and a one-off text. All under OPS_API.
 */

const Uuid = z.uuid({ error: 'must be an id' });

export const RenterIdParam = z.object({ renterId: Uuid }).strict();
export const CheckParams = z.object({ subject: z.enum(REVIEW_SUBJECTS), checkId: Uuid }).strict();

const RenterRef = z.object({ id: z.string(), name: z.string(), phone: z.string() });
const TripRef = z.object({
  tripId: z.string(),
  reference: z.string(),
  pickupAt: z.string(),
  timezone: z.string(),
  locationName: z.string(),
});

/** A check waiting for a staff decision. */
export const ReviewQueueItem = z.object({
  subject: z.enum(REVIEW_SUBJECTS),
  checkId: z.string(),
  why: z.enum(['failed', 'flagged']),
  /** What the provider said: the session's status, or the connection's state. */
  providerStatus: z.string(),
  /** The provider's reason or last error, when it gave one. */
  providerReason: z.string().nullable(),
  /** The insurer, for a connection. */
  carrier: z.string().nullable(),
  checkedAt: z.string(),
  renter: RenterRef,
  /** The renter's next open trip at the staff member's locations. */
  nextTrip: TripRef.nullable(),
});
export type ReviewQueueItem = z.infer<typeof ReviewQueueItem>;
export const ReviewQueue = z.object({ items: z.array(ReviewQueueItem) });
export type ReviewQueue = z.infer<typeof ReviewQueue>;

export const ReviewBody = z
  .object({
    decision: z.enum(REVIEW_DECISIONS, { error: `must be one of ${REVIEW_DECISIONS.join(', ')}` }),
    reason: z.string().max(2000).nullish(),
  })
  .strict();
export type ReviewBody = z.infer<typeof ReviewBody>;

export const Review = z.object({
  id: z.string(),
  subject: z.enum(REVIEW_SUBJECTS),
  checkId: z.string(),
  providerStatus: z.string(),
  decision: z.enum(REVIEW_DECISIONS),
  reason: z.string().nullable(),
  decidedAt: z.string(),
  decidedBy: z.string(),
});
export type Review = z.infer<typeof Review>;

/** A listing on the do-not-rent list. Live while not lifted and before its expiry. */
export const DoNotRentListing = z.object({
  id: z.string(),
  renter: RenterRef,
  reason: z.string(),
  until: z.string(),
  listedAt: z.string(),
  listedBy: z.string(),
  liftedAt: z.string().nullable(),
  liftedBy: z.string().nullable(),
  liftReason: z.string().nullable(),
  live: z.boolean(),
});
export type DoNotRentListing = z.infer<typeof DoNotRentListing>;
export const DoNotRentList = z.object({ items: z.array(DoNotRentListing) });
export type DoNotRentList = z.infer<typeof DoNotRentList>;

export const DoNotRentBody = z
  .object({
    reason: z.string().max(2000).nullish(),
    /** The instant the listing ends (ISO 8601 with its offset); the console sends the end of the chosen day. */
    until: z.string().max(40).nullish(),
  })
  .strict();
export type DoNotRentBody = z.infer<typeof DoNotRentBody>;

export const LiftBody = z.object({ reason: z.string().max(2000).nullish() }).strict();
export type LiftBody = z.infer<typeof LiftBody>;

export const StaffTextBody = z
  .object({
    text: z.string().max(5000).nullish(),
    /** The trip the text is about; the renter's latest trip at your locations when left out. */
    tripId: Uuid.nullish(),
  })
  .strict();
export type StaffTextBody = z.infer<typeof StaffTextBody>;
export const StaffTextSent = z.object({ messageId: z.number().int(), tripId: z.string(), to: z.string() });

const CheckReview = Review.nullable();

/** Everything the renter page shows (no card numbers: a card is its brand's last four). */
export const RenterPage = z.object({
  renter: z.object({
    id: z.string(),
    name: z.string(),
    phone: z.string(),
    email: z.string().nullable(),
    birthday: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    createdAt: z.string(),
  }),
  license: z.object({
    /** The provider's word on the renter's license (approved, declined, resubmission, expired) or null. */
    status: z.string().nullable(),
    name: z.string().nullable(),
    expiration: z.string().nullable(),
    /** Whether staff let the newest failed check through. */
    override: z.boolean(),
    /** Verified, required or failed, as the gates see it. */
    verification: z.enum(['verified', 'required', 'failed']),
    checks: z.array(
      z.object({
        id: z.string(),
        status: z.string(),
        reason: z.string().nullable(),
        createdAt: z.string(),
        decidedAt: z.string().nullable(),
        why: z.enum(['failed', 'flagged']).nullable(),
        review: CheckReview,
      }),
    ),
  }),
  insurance: z.object({
    verified: z.boolean(),
    connections: z.array(
      z.object({
        id: z.string(),
        status: z.string(),
        /** WAIVED when staff let it through; otherwise the provider's state. */
        effectiveStatus: z.string(),
        carrier: z.string().nullable(),
        policyNumber: z.string().nullable(),
        lastError: z.string().nullable(),
        createdAt: z.string(),
        why: z.enum(['failed', 'flagged']).nullable(),
        review: CheckReview,
      }),
    ),
  }),
  trips: z.array(
    z.object({
      tripId: z.string(),
      reference: z.string(),
      status: z.enum(RESERVATION_STATUSES),
      pickupAt: z.string(),
      returnAt: z.string(),
      timezone: z.string(),
      locationName: z.string(),
      car: z.string(),
    }),
  ),
  messages: z.array(
    z.object({
      id: z.number().int(),
      tripReference: z.string(),
      channel: z.enum(['sms', 'email']),
      kind: z.string(),
      to: z.string(),
      subject: z.string().nullable(),
      body: z.string(),
      status: z.string(),
      createdAt: z.string(),
      sentAt: z.string().nullable(),
    }),
  ),
  charges: z.array(
    z.object({
      id: z.string(),
      tripReference: z.string(),
      kind: z.enum(['CHARGE', 'DEPOSIT_HOLD']),
      status: z.string(),
      amountCents: z.number().int(),
      capturedCents: z.number().int(),
      refundedCents: z.number().int(),
      cardLast4: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  doNotRent: z.object({ listed: z.boolean(), history: z.array(DoNotRentListing) }),
});
export type RenterPage = z.infer<typeof RenterPage>;
