import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { formatPhone } from '@ampere/domain/phone';
import { isDamageWaiverLine } from '@ampere/domain/booking';
import { PRODUCT_NAME, SECURITY_DEPOSIT_CENTS } from '@ampere/domain/constants';
import type { Agreement, AgreementCreateBody } from '@ampere/domain/contract/booking';
import type { z } from 'zod';
import { addressLine, formatDateShort } from '@ampere/domain/format';
import { formatPrice } from '@ampere/domain/money';
import { addonTotal } from '@ampere/domain/line-items';
import { rentalDaysBetween } from '@ampere/domain/rental';
import { todayIn } from '@ampere/domain/time';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, notFound, unprocessable } from '../../http/errors.ts';
import type { AgreementDocument } from './document.ts';
import { renderAgreementOffThread } from './render-off-thread.ts';
import * as repo from './repository.ts';
import { documentFileName, isAcceptableSigningDate, profileName, signatureMatches, unsignableReason } from './rules.ts';
import { linkExpiry, signDocumentLink, verifyDocumentLink } from './signed-link.ts';
import { transact } from '../../db/transact.ts';

export interface AgreementDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Pick<Config, 'signedUrlSecret' | 'publicUrl' | 'supportEmail' | 'supportPhone'>;
}

export const LINK_REFUSED = 'This link has expired or is not valid. Open the agreement again from your trip.';

/** The agreement's row, its time as a Date or as the ISO text a JSON sub-select gives. */
export function toAgreement(row: Omit<repo.AgreementRow, 'created_at'> & { created_at: Date | string }): Agreement {
  return {
    id: row.id,
    type: row.type,
    platform_id: row.platform_id,
    signature: row.signature,
    date: row.signed_on,
    rental_type: row.rental_type,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** Line items that are, or will be, charged: not voided, failed or refunded, and not the deposit hold. */
const isCharge = (t: repo.TransactionRow) =>
  !['Canceled', 'Failed', 'Refunded'].includes(t.status) && t.category !== 'Deposit';
const isWaiver = (t: repo.TransactionRow) =>
  isDamageWaiverLine({ ...t, addon: t.addon_type ? { type: t.addon_type } : null });

interface DocumentParts {
  id: string;
  trip: repo.TripRow;
  transactions: repo.TransactionRow[];
  waiverLine: repo.TransactionRow | undefined;
  body: z.output<typeof AgreementCreateBody>;
  renterName: string;
  now: Date;
  config: AgreementDeps['config'];
}

/** What the PDF shows, from the trip as it is at the moment of signing. */
function documentFor({
  id,
  trip,
  transactions,
  waiverLine,
  body,
  renterName,
  now,
  config,
}: DocumentParts): AgreementDocument {
  const pickupAt = new Date(trip.pickup_at);
  const returnAt = new Date(trip.return_at);
  const days = rentalDaysBetween(pickupAt, returnAt, trip.timezone);
  const lineItems = transactions.filter(isCharge).flatMap((t) => {
    const unit = t.number_of_days && t.number_of_days > 1 ? ` (${formatPrice(t.cost)} × ${t.number_of_days} days)` : '';
    const item = { description: `${t.description}${unit}`, amount: t.amount };
    return t.discount_amount > 0
      ? [item, { description: `Discount on ${t.description}`, amount: -t.discount_amount }]
      : [item];
  });
  const deposit = transactions.find((t) => t.category === 'Deposit' && !['Canceled', 'Failed'].includes(t.status));
  return {
    productName: PRODUCT_NAME,
    type: body.type as AgreementDocument['type'],
    agreementId: id,
    platformId: trip.platform_id,
    vehicle: { year: trip.year, model: trip.model_name, color: trip.color, vin: trip.vin },
    pickup: {
      at: pickupAt,
      timeZone: trip.pickup_timezone,
      name: trip.pickup_name,
      address: addressLine({
        street: trip.pickup_street,
        city: trip.pickup_city,
        state: trip.pickup_state,
        zip_code: trip.pickup_zip,
      }),
    },
    return: {
      at: returnAt,
      timeZone: trip.return_timezone,
      name: trip.return_name,
      address: addressLine({
        street: trip.return_street,
        city: trip.return_city,
        state: trip.return_state,
        zip_code: trip.return_zip,
      }),
    },
    rentalDays: days,
    renter: { name: renterName, phone: formatPhone(trip.phone), email: trip.email },
    rentalType: body.rental_type,
    lineItems,
    total: lineItems.reduce((sum, item) => sum + item.amount, 0),
    depositCents: deposit?.amount ?? SECURITY_DEPOSIT_CENTS,
    hasCollisionProtection: Boolean(waiverLine),
    waiver: waiverLine
      ? { pricePerDay: waiverLine.cost, days, total: addonTotal({ amount: waiverLine.cost, frequency: 'DAY' }, days) }
      : null,
    signature: body.signature,
    signedOn: body.date,
    signedAt: now,
    timeZone: trip.timezone,
    support: { email: config.supportEmail, phone: config.supportPhone },
  };
}

/**
 * Signs an agreement for the renter's trip and stores it as a PDF. Signing a type the trip
 * already has answers that agreement (created: false) whatever was sent, so a retried or doubled
 * request never makes a second one.
 */
export async function signAgreement(
  deps: AgreementDeps,
  userId: string,
  body: z.output<typeof AgreementCreateBody>,
): Promise<{ agreement: Agreement; created: boolean }> {
  const { db } = deps;
  // The trip, its agreement of this type if any, and its line items: one statement.
  const found = await repo.findTripForSigning(db, body.platform_id, userId, body.type);
  if (!found) throw notFound('No trip with that id.', 'platform_id');
  const { trip, existing, transactions } = found;
  if (existing) return { agreement: toAgreement(existing), created: false };

  const reason = unsignableReason(trip.status);
  if (reason) throw unprocessable(reason);
  if (body.type === 'LIABILITY_INSURANCE')
    throw unprocessable('Liability insurance is not offered, so there is nothing to sign for it.', 'type');
  const waiverLine = transactions.find(isWaiver);
  if (body.type === 'DAMAGE_WAIVER' && !waiverLine)
    throw unprocessable('This trip has no collision protection to sign for.', 'type');

  const now = deps.clock();
  if (!isAcceptableSigningDate(body.date, now, trip.timezone)) {
    throw unprocessable(`The date must be today's date, ${formatDateShort(todayIn(now, trip.timezone))}.`, 'date');
  }
  const expected = profileName(trip.first_name, trip.last_name);
  if (expected && !signatureMatches(body.signature, expected)) {
    throw unprocessable(`The signature must match the name on your profile: ${expected}.`, 'signature');
  }

  const id = randomUUID();
  const signature = body.signature.replace(/\s+/g, ' ');
  const document = documentFor({
    id,
    trip,
    transactions,
    waiverLine,
    body: { ...body, signature },
    renterName: expected ?? signature,
    now,
    config: deps.config,
  });
  const pdf = Buffer.from(await renderAgreementOffThread(document));

  const stored = await transact(db, async (trx) => {
    const locked = await repo.lockReservationStatus(trx, trip.id);
    if (!locked) throw notFound('No trip with that id.', 'platform_id');
    const lockedReason = unsignableReason(locked.status);
    if (lockedReason) throw unprocessable(lockedReason);
    // The rental type signed for becomes the trip's, in the statement that inserts the agreement.
    return repo.insertAgreementIfAbsent(trx, {
      id,
      reservation_id: trip.id,
      user_id: userId,
      type: body.type,
      signature,
      signed_on: body.date,
      rental_type: body.rental_type,
      document: pdf,
      document_sha256: createHash('sha256').update(pdf).digest('hex'),
      created_at: now,
    });
  });
  if (stored) return { agreement: toAgreement({ ...stored, platform_id: trip.platform_id }), created: true };
  // Lost a race with an identical request: answer with the one that won.
  const row = await repo.findAgreementByType(db, trip.id, body.type);
  if (!row) throw new AppError('INTERNAL', 'The agreement was saved but could not be read back.');
  return { agreement: toAgreement(row), created: false };
}

/** A link to the renter's own agreement document, working for 15 minutes without a session. */
export async function createSignedUrl(
  deps: AgreementDeps,
  userId: string,
  agreementId: string,
): Promise<{ signed_url: string; expires_at: string }> {
  const row = await repo.findOwnAgreement(deps.db, agreementId, userId);
  if (!row) throw notFound('No agreement with that id.', 'id');
  const expires = linkExpiry(deps.clock());
  const signature = signDocumentLink(deps.config.signedUrlSecret, { agreementId: row.id, userId, expires });
  const path = `/api/v1/agreements/${row.id}/document?expires=${expires}&signature=${signature}`;
  return { signed_url: `${deps.config.publicUrl ?? ''}${path}`, expires_at: new Date(expires * 1000).toISOString() };
}

/** The document a signed link points at; any expired, altered or unknown link is refused alike. */
export async function openDocument(
  deps: AgreementDeps,
  agreementId: string,
  expires: number,
  signature: string,
): Promise<{ pdf: Buffer; fileName: string; sha256: string }> {
  const row = await repo.findAgreementDocument(deps.db, agreementId);
  if (
    !row ||
    !verifyDocumentLink(
      deps.config.signedUrlSecret,
      { agreementId: row.id, userId: row.user_id, expires },
      signature,
      deps.clock(),
    )
  ) {
    throw new AppError('FORBIDDEN', LINK_REFUSED);
  }
  return {
    pdf: Buffer.from(row.document),
    fileName: documentFileName(PRODUCT_NAME, row.type, row.platform_id),
    sha256: row.document_sha256,
  };
}
