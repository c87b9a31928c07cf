import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { hasDamageWaiver, isNewReservation } from '@ampere/domain/booking';
import { PRODUCT_NAME } from '@ampere/domain/constants';
import { TRIP_NOT_FOUND_MESSAGE } from '@ampere/domain/contract/booking';
import type { Receipt, ReceiptLink } from '@ampere/domain/contract/receipt';
import {
  RECEIPT_UNAVAILABLE_MESSAGE,
  isSharedReceiptReady,
  onReceipt,
  paidCents,
  receiptView,
} from '@ampere/domain/receipt';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError, notFound } from '../../http/errors.ts';
import * as reservations from '../trips/repository.ts';
import { toRide, toTransaction } from '../trips/serializer.ts';
import { renderReceipt } from './document.ts';
import * as repo from './repository.ts';

export interface ReceiptDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
}

/** One answer for an unknown, revoked or never-made link: nothing tells them apart. */
export const LINK_NOT_FOUND = 'This receipt link is not valid or has been revoked. Ask the renter for a new one.';
export const UNPAID_TRIP = 'A receipt link can be shared once the trip is paid.';

/** Receipt links carry 32 random bytes (256 bits); only their SHA-256 is stored. */
export const newToken = () => randomBytes(32).toString('base64url');
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The receipt of a trip, as both pages and the PDF read it: only what the receipt shows. */
async function receiptOf(
  db: Kysely<Database>,
  trip: repo.ReceiptTripRow,
  viewer: { isOwner: boolean },
): Promise<Receipt> {
  const [rows, rides, image, link, paid] = await Promise.all([
    reservations.transactionsFor(db, [trip.id]),
    reservations.ridesFor(db, [trip.id]),
    repo.moneyshot(db, trip.vehicle_id, trip.model_id, trip.color),
    viewer.isOwner ? repo.liveLink(db, trip.id) : undefined,
    repo.paymentsOf(db, trip.id),
  ]);
  // Payments are named by their place in the trip's order, not by the provider's ids.
  const refOf = new Map(paid.map((p, i) => [p.provider_intent_id, i + 1]));
  const payments = paid.map((p, i) => ({
    ref: i + 1,
    at: p.created_at.toISOString(),
    card_last_4: p.card_last_4,
    refunded_at: p.refunded_at ? p.refunded_at.toISOString() : null,
  }));
  // The contract's Receipt lists fewer fields than a Transaction; the route's schema leaves the rest out.
  const all = rows.map((row) => {
    const t = toTransaction(row);
    return {
      ...t,
      administration_of: row.administration_of,
      payment: (t.stripe_payment_intent_id && refOf.get(t.stripe_payment_intent_id)) || null,
    };
  });
  return {
    platform_id: trip.platform_id,
    status: trip.status,
    pickup_at: trip.pickup_at.toISOString(),
    return_at: trip.return_at.toISOString(),
    timezone: trip.timezone,
    vehicle: { vin: trip.vin, year: trip.year, color: trip.color, model: { name: trip.model_name }, image_url: image },
    pickup_location: {
      name: trip.location_name,
      city: trip.location_city,
      state: trip.location_state,
      timezone: trip.location_timezone,
    },
    damage_waiver: hasDamageWaiver(all),
    discount_code: trip.discount_code,
    total: paidCents(all),
    rides: rides.map(toRide),
    payments,
    // Only what makes a card (spec 4): an unpaid change of dates or a canceled item is not on a receipt.
    transactions: all.filter(onReceipt),
    viewer_is_owner: viewer.isOwner,
    share_link: link ? { created_at: link.created_at.toISOString() } : null,
  };
}

async function ownTripOrNotFound(
  db: Kysely<Database>,
  userId: string,
  platformId: string,
): Promise<repo.ReceiptTripRow> {
  const trip = await repo.ownTrip(db, userId, platformId);
  if (!trip) throw notFound(TRIP_NOT_FOUND_MESSAGE, 'platform_id');
  return trip;
}

async function tripByToken(db: Kysely<Database>, token: string): Promise<repo.ReceiptTripRow> {
  const trip = await repo.tripByTokenHash(db, tokenHash(token));
  if (!trip) throw notFound(LINK_NOT_FOUND, 'token');
  return trip;
}

/** The renter's own trip's receipt (another renter's trip is the same 404 as a missing one). */
export async function receiptForOwner(deps: ReceiptDeps, userId: string, platformId: string): Promise<Receipt> {
  return receiptOf(deps.db, await ownTripOrNotFound(deps.db, userId, platformId), { isOwner: true });
}

/** The receipt a link opens, for anyone holding it; `viewerId` is the signed-in caller, if any. */
export async function receiptByToken(deps: ReceiptDeps, token: string, viewerId: string | null): Promise<Receipt> {
  const trip = await tripByToken(deps.db, token);
  return receiptOf(deps.db, trip, { isOwner: viewerId !== null && viewerId === trip.user_id });
}

/**
 * A new receipt link for the renter's paid trip: any earlier link stops working in the same
 * transaction, so a trip has one live link at most. The token is returned this once.
 */
export async function createLink(deps: ReceiptDeps, userId: string, platformId: string): Promise<ReceiptLink> {
  const trip = await ownTripOrNotFound(deps.db, userId, platformId);
  if (isNewReservation(trip)) throw new AppError('CONFLICT', UNPAID_TRIP, 'platform_id');
  const token = newToken();
  const now = deps.clock();
  await transact(deps.db, async (trx) => {
    await repo.lockTrip(trx, trip.id);
    await repo.revokeLinks(trx, trip.id, now);
    await repo.insertLink(trx, {
      reservation_id: trip.id,
      token_hash: tokenHash(token),
      created_by: userId,
      created_at: now,
    });
  });
  const path = `/receipt?token=${token}`;
  return { token, url: `${deps.config.publicUrl ?? ''}${path}`, created_at: now.toISOString() };
}

/** Revokes the trip's receipt link: it then answers 404. Revoking when there is none changes nothing. */
export async function revokeLink(deps: ReceiptDeps, userId: string, platformId: string): Promise<void> {
  const trip = await ownTripOrNotFound(deps.db, userId, platformId);
  await transact(deps.db, async (trx) => {
    await repo.lockTrip(trx, trip.id);
    await repo.revokeLinks(trx, trip.id, deps.clock());
  });
}

/** 'Ampere-Receipt-AMP-7K2Q-9XD4.pdf' */
export const receiptFileName = (platformId: string) =>
  `${PRODUCT_NAME}-Receipt-${platformId.replace(/[^A-Za-z0-9-]/g, '')}.pdf`;

async function pdfOf(deps: ReceiptDeps, receipt: Receipt): Promise<{ pdf: Buffer; fileName: string }> {
  const pdf = await renderReceipt({
    productName: PRODUCT_NAME,
    platformId: receipt.platform_id,
    place: `${receipt.pickup_location.name}, ${receipt.pickup_location.city}, ${receipt.pickup_location.state}`,
    view: receiptView(receipt),
    issuedAt: deps.clock(),
    timeZone: receipt.timezone,
  });
  return { pdf: Buffer.from(pdf), fileName: receiptFileName(receipt.platform_id) };
}

export async function ownerReceiptPdf(deps: ReceiptDeps, userId: string, platformId: string) {
  const trip = await ownTripOrNotFound(deps.db, userId, platformId);
  return pdfOf(deps, await receiptOf(deps.db, trip, { isOwner: false }));
}

/** The shared receipt's PDF: refused, as its page is, until the trip has a ride (a 409 with the page's words). */
export async function tokenReceiptPdf(deps: ReceiptDeps, token: string) {
  const receipt = await receiptOf(deps.db, await tripByToken(deps.db, token), { isOwner: false });
  if (!isSharedReceiptReady(receipt)) throw new AppError('CONFLICT', RECEIPT_UNAVAILABLE_MESSAGE, 'token');
  return pdfOf(deps, receipt);
}
