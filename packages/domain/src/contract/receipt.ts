import { z } from './zod.ts';
import { COLORS, RESERVATION_STATUSES } from '../constants.ts';
import { Reservation, Transaction } from './booking.ts';
import { Cents } from './common.ts';
import { RECEIPT_TOKEN_PATTERN } from '../receipt.ts';

/**
 * The API contract for receipts (decision 031): the receipt of one trip, read by its owner or by
 * anyone holding the trip's receipt link (spec 7: GET /api/admin/v1/transactions/receipts with
 * query token → receipt rides and transactions), and the owner's calls that make and revoke the
 * link. A receipt carries what the page prints and nothing about the renter.
 */

export const ReceiptTokenQuery = z.object({
  token: z.string({ error: 'is required' }).trim().regex(RECEIPT_TOKEN_PATTERN, 'must be the token of a receipt link'),
});

/** The items the receipt lists, with the fields its cards, labels and amounts are made from (spec 3's names). */
export const ReceiptTransaction = Transaction.pick({
  id: true,
  category: true,
  status: true,
  description: true,
  amount: true,
  captured_amount: true,
  discount_amount: true,
  number_of_days: true,
  effective_date: true,
  initiated_at: true,
  released_at: true,
  card_last_4: true,
  stripe_reserve_applied_payment_intent_id: true,
}).extend({
  addon: z.object({ type: Transaction.shape.addon.unwrap().shape.type }).nullable(),
  /** Which of `payments` paid or holds the item (its `ref`); null when none. The provider's own ids stay private. */
  payment: z.number().int().positive().nullable(),
  /** On a charge's administration fee: the charge it administers (its lines come first); null otherwise. */
  administration_of: z.string().nullable().optional(),
});
export type ReceiptTransaction = z.infer<typeof ReceiptTransaction>;

/** One of the trip's charges or deposit holds, numbered in the order they were made (decision 051). */
export const ReceiptPayment = z.object({
  ref: z.number().int().positive(),
  /** When the charge was made or the hold placed. */
  at: z.string(),
  card_last_4: z.string().nullable(),
  /** When the provider gave the charge back, or null. */
  refunded_at: z.string().nullable(),
});

export const Receipt = z.object({
  platform_id: z.string(),
  status: z.enum(RESERVATION_STATUSES),
  pickup_at: z.string(),
  return_at: z.string(),
  /** The pickup place's IANA zone: the receipt's times are shown on its clock. */
  timezone: z.string(),
  vehicle: z.object({
    vin: z.string(),
    year: z.number().int(),
    color: z.enum(COLORS),
    model: z.object({ name: z.string() }),
    /** The car's MONEYSHOT photo (spec 2), or null when it has none. */
    image_url: z.string().nullable(),
  }),
  pickup_location: z.object({ name: z.string(), city: z.string(), state: z.string(), timezone: z.string() }),
  /** Collision Protection on the trip: the Damage Waiver badge. */
  damage_waiver: z.boolean(),
  /** The coupon on the trip, or null: its code names the discount line. */
  discount_code: z.string().nullable(),
  /** What the renter paid, net of refunds, in cents (domain `paidCents`): what the provider kept. */
  total: Cents,
  rides: Reservation.shape.rides,
  /** The charges and holds the items name. */
  payments: z.array(ReceiptPayment),
  /** Only the items that make receipt cards (spec 4 'Receipt grouping'). */
  transactions: z.array(ReceiptTransaction),
  /** Whether the signed-in caller owns the trip: the token page then links to the trip. */
  viewer_is_owner: z.boolean(),
  /** For the owner: when the live receipt link was made, or null. Never the link itself (only its hash is kept). */
  share_link: z.object({ created_at: z.string() }).nullable(),
});
export type Receipt = z.infer<typeof Receipt>;

/** POST /api/v1/reservations/{id}/receipt-token: the new link, shown this once. */
export const ReceiptLink = z.object({
  token: z.string(),
  /** `/receipt?token=…`, absolute when PUBLIC_URL is set. */
  url: z.string(),
  created_at: z.string(),
});
export type ReceiptLink = z.infer<typeof ReceiptLink>;

/** DELETE /api/v1/reservations/{id}/receipt-token: no live link any more. */
export const ReceiptLinkRevoked = z.object({ share_link: z.null() });
