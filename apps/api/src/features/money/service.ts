import type { Kysely } from 'kysely';
import type { z } from 'zod';
import {
  CHARGE_STATUS_LABELS,
  type ChargeMoney,
  DEPOSIT_STATUS_LABELS,
  type DepositStatus,
  canDispute,
  chargeCategory,
  chargeStatusOf,
  depositReviewEndsAt,
  disputeOpenUntil,
  holdExpiresAt,
  keptCents,
  paymentStatusWords,
  refundableCents,
  splitCharge,
} from '@ampere/domain/charges';
import {
  FEE_CATALOGUE,
  type FeeTypeId,
  POSTABLE_FEE_TYPE_IDS,
  priceCharge,
  AT_COST_LIMIT_CENTS,
} from '@ampere/domain/fees';
import type {
  CaptureDeposit,
  Charge,
  DepositHold,
  DepositsQuery,
  Dispute,
  DisputeQueue,
  DisputesQuery,
  FeeCatalogue,
  NewCharge,
  NewRefund,
  Refund,
  TripMoney,
  TripPayment,
} from '@ampere/domain/contract/ops-money';
import type { RenterCharge } from '@ampere/domain/contract/charges';
import { paidCents } from '@ampere/domain/receipt-cards';
import { REFUND_LIMIT_CENTS, mayRefund, can } from '@ampere/domain/staff';
import { formatTotal } from '@ampere/domain/money';
import { toLocal } from '@ampere/domain/time';
import { REAUTHORIZE_AFTER_DAYS } from '../trips/reauthorize.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { OpsContext } from '../../http/ops-route.ts';
import { ensureCustomer } from '../payments/service.ts';
import * as payRepo from '../payments/repository.ts';
import * as holds from '../payments/holds-repository.ts';
import { type SyncDeps, syncPaymentIntent } from '../trips/sync.ts';
import { cancelRetiredCharges } from '../trips/checkout.ts';
import { crashPoint } from '../../crash.ts';
import { settleReturnedDeposit } from '../trips/settle-deposit.ts';
import * as trips from '../trips/repository.ts';
import { recordMoneyMoved } from '../messages/record.ts';
import { recordAudit } from '../audit/repository.ts';
import { type PhotoStorage, photoStorageFor } from '../photos/storage.ts';
import { TRIP_NOT_FOUND, inspectionPhotoUrl, signedEvidenceUrl, staffEvidence, verifyEvidenceUrl } from './evidence.ts';
import * as repo from './repository.ts';

/**
 * Charges after the trip, disputes, deposits and refunds (issue 30 §2 and §3, decisions 091–093).
 * Every write is one transaction with its audit record; the provider is called outside any
 * transaction, and what it did is read back through the payment sync (gateway = ledger = receipt).
 */

export interface MoneyDeps {
  db: Kysely<Database>;
  /** The payment sync's dependencies: the gateway, the clock, the renter's messages. */
  payments: SyncDeps;
  storage: PhotoStorage;
  signedUrlSecret: string;
}

/** The storage each app's evidence goes to, made once per configuration (the photos' storage). */
const storages = new WeakMap<object, PhotoStorage>();

export function moneyDepsFor(
  db: Kysely<Database>,
  payments: SyncDeps,
  config: Parameters<typeof photoStorageFor>[0] & { signedUrlSecret: string },
): MoneyDeps {
  let storage = storages.get(config);
  if (!storage) storages.set(config, (storage = photoStorageFor(config)));
  return { db, payments, storage, signedUrlSecret: config.signedUrlSecret };
}

/** The renter's own charges of their trip by its reference; another renter's trip is a 404. */
export async function ownTripCharges(deps: MoneyDeps, userId: string, platformId: string): Promise<RenterCharge[]> {
  const trip = await repo.ownTrip(deps.db, userId, platformId);
  if (!trip) throw notFound('We could not find that trip.', 'id');
  return renterCharges(deps, await repo.chargesOfTrip(deps.db, trip.id), userId, deps.payments.clock());
}

/** One of the renter's own charges; another renter's is a 404. */
export async function ownCharge(deps: MoneyDeps, userId: string, chargeId: string): Promise<RenterCharge> {
  const [row] = await repo.chargesByIds(deps.db, [chargeId]);
  if (!row || row.user_id !== userId) throw notFound(CHARGE_NOT_FOUND, 'chargeId');
  return (await renterCharges(deps, [row], userId, deps.payments.clock()))[0]!;
}

/** An evidence file by the renter's signed address; anything else is a 404. */
export async function renterEvidenceFile(
  deps: MoneyDeps,
  input: { chargeId: string; evidenceId: string; expires: number; signature: string },
): Promise<{ bytes: Buffer; contentType: string }> {
  const gone = () => notFound('This evidence link is not valid or has expired; open the charge again.');
  const [charge] = await repo.chargesByIds(deps.db, [input.chargeId]);
  const evidence = await repo.findEvidence(deps.db, input.evidenceId);
  if (!charge?.user_id || !evidence?.storage_key) throw gone();
  const belongs =
    evidence.charge_id === charge.id ||
    (charge.administration_of !== null && evidence.charge_id === charge.administration_of);
  const signed = verifyEvidenceUrl(
    deps.signedUrlSecret,
    {
      chargeId: charge.id,
      evidenceId: evidence.id,
      userId: charge.user_id,
      expires: input.expires,
      signature: input.signature,
    },
    deps.payments.clock(),
  );
  if (!belongs || !signed) throw gone();
  const bytes = await deps.storage.get(evidence.storage_key);
  if (!bytes) throw notFound('This evidence file is missing.');
  return { bytes, contentType: evidence.content_type ?? 'application/octet-stream' };
}

export const CHARGE_NOT_FOUND = 'We could not find that charge.';
export const DISPUTE_NOT_FOUND = 'We could not find that dispute.';
export const HOLD_NOT_FOUND = 'We could not find that deposit hold.';
export const PAYMENT_NOT_FOUND = 'We could not find that payment.';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const net = (t: { amount: number; discount_amount: number }) => t.amount - t.discount_amount;

// ---- the fee catalogue ----

export function feeCatalogue(): z.input<typeof FeeCatalogue> {
  return {
    fees: POSTABLE_FEE_TYPE_IDS.map((id) => {
      const fee = FEE_CATALOGUE[id];
      const p = fee.price;
      return {
        id,
        label: fee.label,
        when: fee.when,
        unit: fee.unit,
        charge: fee.charge,
        price:
          p.kind === 'atCost'
            ? { kind: 'atCost' as const, limitCents: AT_COST_LIMIT_CENTS }
            : p.kind === 'banded'
              ? { kind: 'banded' as const, of: p.of, bands: p.bands.map((b) => ({ ...b })) }
              : p,
        evidence: [...fee.evidence],
        administration: fee.administration ?? null,
      };
    }),
  };
}

// ---- a charge's money and views ----

export function moneyOf(items: readonly repo.ChargeItem[]): ChargeMoney {
  const m: ChargeMoney = { onHold: 0, fromDeposit: 0, toCard: 0, owed: 0, refunded: 0 };
  for (const t of items) {
    const cents = net(t);
    if (t.status === 'Pending') {
      if (t.payment_kind === 'DEPOSIT_HOLD') m.onHold += cents;
      else m.owed += cents;
    } else if (t.status === 'Successful' || t.status === 'Refunded') {
      if (t.payment_kind === 'DEPOSIT_HOLD') m.fromDeposit += cents;
      else m.toCard += cents;
      if (t.status === 'Refunded') m.refunded += cents;
    }
  }
  return m;
}

interface ChargeBundle {
  rows: repo.ChargeRow[];
  items: Map<string, repo.ChargeItem[]>;
  evidence: Map<string, repo.EvidenceRow[]>;
  disputes: Map<string, repo.DisputeRow>;
}

async function bundle(db: Kysely<Database>, rows: repo.ChargeRow[]): Promise<ChargeBundle> {
  const ids = rows.map((r) => r.id);
  const evidenceIds = [...new Set([...ids, ...rows.map((r) => r.administration_of).filter((x): x is string => !!x)])];
  const [items, evidence, disputes] = await Promise.all([
    repo.chargeItems(db, ids),
    repo.evidenceOfCharges(db, evidenceIds),
    repo.disputesOfCharges(db, ids),
  ]);
  const group = <T extends { charge_id: string | null }>(list: readonly T[]) => {
    const m = new Map<string, T[]>();
    for (const x of list) if (x.charge_id) m.set(x.charge_id, [...(m.get(x.charge_id) ?? []), x]);
    return m;
  };
  return {
    rows,
    items: group(items),
    evidence: group(evidence),
    disputes: new Map(disputes.map((d) => [d.charge_id, d])),
  };
}

function disputeView(d: repo.DisputeRow): Dispute {
  return {
    id: d.id,
    chargeId: d.charge_id,
    text: d.renter_text,
    openedAt: iso(d.opened_at)!,
    outcome: d.outcome,
    staffReason: d.staff_reason,
    decidedAt: iso(d.decided_at),
    decidedBy: d.decided_by,
    decidedByName: d.decided_by_name,
  };
}

function evidenceFor(b: ChargeBundle, row: repo.ChargeRow): repo.EvidenceRow[] {
  return [
    ...(b.evidence.get(row.id) ?? []),
    ...(row.administration_of ? (b.evidence.get(row.administration_of) ?? []) : []),
  ];
}

function staffCharge(b: ChargeBundle, row: repo.ChargeRow): Charge {
  const items = b.items.get(row.id) ?? [];
  const money = moneyOf(items);
  const dispute = b.disputes.get(row.id) ?? null;
  const status = chargeStatusOf(money, dispute);
  const paid = items.find((t) => t.card_last_4 || t.payment_last4);
  return {
    id: row.id,
    tripId: row.reservation_id,
    tripReference: row.platform_id,
    type: row.fee_type,
    label: FEE_CATALOGUE[row.fee_type].label,
    quantity: row.quantity,
    unitCents: row.unit_cents,
    amount: row.amount,
    reason: row.reason,
    status,
    statusLabel: CHARGE_STATUS_LABELS[status],
    postedAt: iso(row.posted_at)!,
    postedBy: row.posted_by,
    postedByName: row.posted_by_name,
    onHoldCents: money.onHold,
    fromDepositCents: money.fromDeposit,
    toCardCents: money.toCard,
    owedCents: money.owed,
    refundedCents: money.refunded,
    cardBrand: paid?.card_brand ?? null,
    cardLast4: paid ? (paid.card_last_4 ?? paid.payment_last4) : null,
    administrationOf: row.administration_of,
    externalReference: row.external_reference,
    occurredAt: iso(row.occurred_at),
    disputeOpenUntil: disputeOpenUntil(new Date(row.posted_at)).toISOString(),
    dispute: dispute ? disputeView(dispute) : null,
    evidence: evidenceFor(b, row).map(staffEvidence),
  };
}

export async function staffCharges(db: Kysely<Database>, rows: repo.ChargeRow[]): Promise<Charge[]> {
  const b = await bundle(db, rows);
  return rows.map((r) => staffCharge(b, r));
}

export async function renterCharges(
  deps: MoneyDeps,
  rows: repo.ChargeRow[],
  userId: string,
  now: Date,
): Promise<RenterCharge[]> {
  const b = await bundle(deps.db, rows);
  return rows.map((row) => {
    const c = staffCharge(b, row);
    const dispute = b.disputes.get(row.id) ?? null;
    return {
      id: c.id,
      tripId: c.tripId,
      tripReference: c.tripReference,
      timezone: row.timezone,
      type: c.type,
      label: c.label,
      when: FEE_CATALOGUE[c.type].when,
      reason: c.reason,
      quantity: c.quantity,
      unitCents: c.unitCents,
      amount: c.amount,
      status: c.status,
      statusLabel: c.statusLabel,
      postedAt: c.postedAt,
      fromDepositCents: c.fromDepositCents,
      toCardCents: c.toCardCents,
      onHoldCents: c.onHoldCents,
      owedCents: c.owedCents,
      refundedCents: c.refundedCents,
      cardLast4: c.cardLast4,
      occurredAt: c.occurredAt,
      externalReference: c.externalReference,
      disputeOpenUntil: c.disputeOpenUntil,
      canDispute: canDispute({ status: c.status, postedAt: new Date(c.postedAt), disputed: dispute !== null }, now).ok,
      dispute: dispute
        ? {
            text: dispute.renter_text,
            openedAt: iso(dispute.opened_at)!,
            outcome: dispute.outcome,
            staffReason: dispute.outcome ? dispute.staff_reason : null,
            decidedAt: iso(dispute.decided_at),
          }
        : null,
      evidence: evidenceFor(b, row).map((e) => ({
        id: e.id,
        kind: e.kind,
        label: e.label,
        value: e.reading_value,
        contentType: e.content_type,
        url: e.storage_key
          ? signedEvidenceUrl(deps.signedUrlSecret, { chargeId: row.id, evidenceId: e.id, userId, now })
          : inspectionPhotoUrl(e),
      })),
    };
  });
}

// ---- the trip ----

async function tripInScope(db: Kysely<Database>, ops: OpsContext, tripId: string): Promise<repo.MoneyTrip> {
  const trip = await repo.tripForMoney(db, tripId);
  if (!trip) throw notFound(TRIP_NOT_FOUND, 'tripId');
  ops.requireInScope(String(trip.pickup_location_id), TRIP_NOT_FOUND);
  return trip;
}

function depositStatus(h: repo.HoldRow): DepositStatus {
  switch (h.status) {
    case 'requires_capture':
      return h.trip_status === 'Returned' ? 'in_review' : 'authorised';
    case 'succeeded':
      return 'captured';
    case 'canceled':
      return 'released';
    case 'requires_payment_method':
      return 'failed';
    default:
      return 'pending';
  }
}

export function depositView(h: repo.HoldRow): DepositHold {
  const status = depositStatus(h);
  const live = h.status === 'requires_capture';
  const placed = new Date(h.created_at);
  return {
    paymentId: h.id,
    tripId: h.reservation_id,
    tripReference: h.platform_id,
    locationId: String(h.pickup_location_id),
    renterName: h.renter_name,
    status,
    statusLabel: DEPOSIT_STATUS_LABELS[status],
    amount: h.amount,
    linkedCents: Number(h.linked),
    capturedCents: h.amount_captured,
    refundedCents: h.amount_refunded,
    cardBrand: h.card_brand,
    cardLast4: h.card_last_4,
    placedAt: placed.toISOString(),
    expiresAt: live ? holdExpiresAt(placed).toISOString() : null,
    reauthoriseAt:
      live && h.trip_status !== 'Returned'
        ? new Date(placed.getTime() + REAUTHORIZE_AFTER_DAYS * 86_400_000).toISOString()
        : null,
    reviewEndsAt: live && h.returned_at ? depositReviewEndsAt(new Date(h.returned_at)).toISOString() : null,
    settledAt: live
      ? null
      : iso(h.settled_at ?? (status === 'captured' || status === 'released' ? h.updated_at : null)),
  };
}

function paymentView(
  p: Awaited<ReturnType<typeof repo.paymentsOfTrip>>[number],
  labels: Map<string, string>,
): TripPayment {
  return {
    paymentId: p.id,
    kind: p.kind,
    label: p.kind === 'DEPOSIT_HOLD' ? 'Deposit' : (labels.get(p.id) ?? 'Booking'),
    status: p.status,
    statusLabel: paymentStatusWords({
      status: p.status,
      kind: p.kind,
      capturedCents: p.amount_captured,
      refundedCents: p.amount_refunded,
    }),
    amount: p.amount,
    capturedCents: p.amount_captured,
    refundedCents: p.amount_refunded,
    refundableCents: refundableCents({ captured: p.amount_captured, refunded: p.amount_refunded }),
    cardBrand: p.card_brand,
    cardLast4: p.card_last_4,
    at: iso(p.created_at)!,
  };
}

function refundView(r: repo.RefundRow): Refund {
  return {
    id: r.id,
    paymentId: r.payment_id,
    tripId: r.reservation_id,
    amount: r.amount,
    reason: r.reason,
    issuedBy: r.issued_by,
    issuedByName: r.issued_by_name,
    disputeId: r.dispute_id,
    createdAt: iso(r.created_at)!,
  };
}

/** What the provider kept on the trip and what the ledger says was paid (they must agree). */
export async function tripBooks(db: Kysely<Database>, tripId: string) {
  const [pays, items] = await Promise.all([repo.paymentsOfTrip(db, tripId), repo.tripItems(db, tripId)]);
  return {
    gatewayKeptCents: keptCents(pays.map((p) => ({ captured: p.amount_captured, refunded: p.amount_refunded }))),
    ledgerPaidCents: paidCents(items),
  };
}

export async function tripMoney(deps: MoneyDeps, ops: OpsContext, tripId: string): Promise<TripMoney> {
  const trip = await tripInScope(deps.db, ops, tripId);
  const [rows, hold, pays, refunds, labels, books] = await Promise.all([
    repo.chargesOfTrip(deps.db, trip.id),
    repo.tripHold(deps.db, trip.id),
    repo.paymentsOfTrip(deps.db, trip.id),
    repo.refundsOfTrip(deps.db, trip.id),
    repo.chargeLabelsByPayment(deps.db, trip.id),
    tripBooks(deps.db, trip.id),
  ]);
  const labelOf = new Map<string, string>();
  for (const l of labels) if (l.payment_id) labelOf.set(l.payment_id, `Charge: ${l.description}`);
  return {
    tripId: trip.id,
    tripReference: trip.platform_id,
    locationId: String(trip.pickup_location_id),
    timezone: trip.location_timezone,
    status: trip.status,
    returnedAt: iso(trip.returned_at),
    charges: await staffCharges(deps.db, rows),
    deposit: hold ? depositView(hold) : null,
    payments: pays.map((p) => paymentView(p, labelOf)),
    refunds: refunds.map(refundView),
    books,
    refundLimitCents: can(ops.staff.role, 'refunds.issue') ? REFUND_LIMIT_CENTS[ops.staff.role] : 0,
  };
}

// ---- posting a charge ----

type EvidenceInput = Pick<z.output<typeof NewCharge>, 'evidenceIds' | 'readings' | 'inspectionPhotoIds'>;

/** The uploaded evidence named, checked to be this trip's and not yet another charge's. */
async function namedEvidence(db: Kysely<Database>, tripId: string, input: EvidenceInput) {
  const files = await repo.evidenceByIds(db, input.evidenceIds);
  const missing = input.evidenceIds.filter((id) => !files.some((f) => f.id === id && f.reservation_id === tripId));
  if (missing.length > 0)
    throw new AppError('UNPROCESSABLE', `No evidence ${missing[0]} was uploaded for this trip.`, 'evidenceIds');
  if (files.some((f) => f.charge_id !== null))
    throw new AppError('UNPROCESSABLE', 'That evidence already backs another charge; upload it again.', 'evidenceIds');
  const photos = await repo.inspectionPhotosOfTrip(db, tripId, input.inspectionPhotoIds);
  const strange = input.inspectionPhotoIds.find((id) => !photos.includes(id));
  if (strange)
    throw new AppError(
      'UNPROCESSABLE',
      `Photo ${strange} is not one of this trip's inspection photos.`,
      'inspectionPhotoIds',
    );
  const kinds = [
    ...files.map((f) => ({ kind: f.kind })),
    ...input.readings.map(() => ({ kind: 'reading' as const })),
    ...input.inspectionPhotoIds.map(() => ({ kind: 'photo' as const })),
  ];
  return { files, kinds };
}

interface PricedCharge {
  type: FeeTypeId;
  quantity: number;
  unitCents: number;
  amount: number;
  label: string;
}

function priced(
  type: FeeTypeId,
  quantity: number | undefined,
  cents: number | undefined,
  kinds: { kind: 'photo' | 'reading' | 'document' }[],
): PricedCharge {
  const result = priceCharge({ type, quantity, cents, evidence: kinds });
  if (!result.ok) throw new AppError('UNPROCESSABLE', result.message, result.field);
  return { type, quantity: result.quantity, unitCents: result.unitCents, amount: result.amount, label: result.label };
}

/** A charge and, when its fee brings one, its administration fee: priced, with the evidence's kinds. */
export function priceWithAdministration(
  type: FeeTypeId,
  quantity: number | undefined,
  cents: number | undefined,
  kinds: { kind: 'photo' | 'reading' | 'document' }[],
): PricedCharge[] {
  const main = priced(type, quantity, cents, kinds);
  const admin = FEE_CATALOGUE[type].administration;
  return admin ? [main, priced(admin, 1, undefined, kinds)] : [main];
}

export interface Posting {
  priced: PricedCharge[];
  reason: string;
  evidence: EvidenceInput & { files: readonly { id: string }[] };
  externalReference?: string | null;
  occurredAt?: Date | null;
  importKey?: string | null;
  /** Evidence rows to write for each posted charge (the toll import's statement). */
  extraEvidence?: { storageKey: string; contentType: string; bytes: number; label: string };
}

/**
 * Writes the charges of one posting inside `trx` (the trip locked by the caller): each priced
 * charge with its ledger items — what the live hold of a returned trip can still cover linked to
 * it, the rest owed until the card is charged after commit — and its evidence. Returns the ids.
 */
export async function writeCharges(
  trx: Parameters<Parameters<typeof transact>[1]>[0],
  trip: repo.MoneyTrip,
  posting: Posting,
  staffId: string | null,
  now: Date,
): Promise<{ ids: string[]; toCard: number }> {
  const hold = trip.status === 'Returned' ? await holds.liveHold(trx, trip.id) : undefined;
  let room = hold ? hold.amount - (await holds.feesOnHold(trx, hold.id)) : 0;
  const date = toLocal(now, trip.timezone).date;
  const ids: string[] = [];
  let toCardTotal = 0;
  let mainId: string | null = null;
  for (const p of posting.priced) {
    const { fromHold, toCard } = splitCharge(p.amount, room);
    room -= fromHold;
    toCardTotal += toCard;
    const { id } = await repo.insertCharge(trx, {
      reservation_id: trip.id,
      fee_type: p.type,
      quantity: p.quantity,
      unit_cents: p.unitCents,
      amount: p.amount,
      reason: posting.reason,
      status: 'posted',
      posted_by: staffId,
      posted_at: now,
      administration_of: mainId,
      external_reference: posting.externalReference ?? null,
      occurred_at: posting.occurredAt ?? null,
      import_key: mainId === null ? (posting.importKey ?? null) : null,
    });
    const category = chargeCategory(p.type);
    if (fromHold > 0)
      await repo.insertChargeItem(trx, {
        reservation_id: trip.id,
        charge_id: id,
        category,
        description: p.label,
        amount: fromHold,
        payment_id: hold!.id,
        now,
        date,
      });
    if (toCard > 0)
      await repo.insertChargeItem(trx, {
        reservation_id: trip.id,
        charge_id: id,
        category,
        description: p.label,
        amount: toCard,
        payment_id: null,
        now,
        date,
      });
    if (mainId === null) {
      mainId = id;
      await repo.attachEvidence(
        trx,
        posting.evidence.files.map((f) => f.id),
        id,
      );
      for (const r of posting.evidence.readings)
        await repo.insertEvidence(trx, {
          reservation_id: trip.id,
          charge_id: id,
          kind: 'reading',
          label: r.label,
          reading_value: r.value,
          uploaded_by: staffId,
          created_at: now,
        });
      for (const photoId of posting.evidence.inspectionPhotoIds)
        await repo.insertEvidence(trx, {
          reservation_id: trip.id,
          charge_id: id,
          kind: 'photo',
          label: 'Inspection photo',
          inspection_photo_id: photoId,
          uploaded_by: staffId,
          created_at: now,
        });
      if (posting.extraEvidence)
        await repo.insertEvidence(trx, {
          reservation_id: trip.id,
          charge_id: id,
          kind: 'document',
          label: posting.extraEvidence.label,
          storage_key: posting.extraEvidence.storageKey,
          content_type: posting.extraEvidence.contentType,
          bytes: posting.extraEvidence.bytes,
          uploaded_by: staffId,
          created_at: now,
        });
    }
    ids.push(id);
  }
  return { ids, toCard: toCardTotal };
}

/** Charges can be posted on a trip that went out: on rent, or returned. */
export function requirePostable(trip: repo.MoneyTrip): void {
  if (trip.status !== 'Returned' && trip.status !== 'On Rent')
    throw new AppError(
      'CONFLICT',
      `Charges are posted on trips that are on rent or returned; this trip is ${trip.status}.`,
      'tripId',
    );
  if (!trip.user_id) throw new AppError('CONFLICT', 'This trip has no renter to charge.', 'tripId');
}

export async function postCharge(
  deps: MoneyDeps,
  ops: OpsContext,
  tripId: string,
  body: z.output<typeof NewCharge>,
): Promise<Charge[]> {
  const trip = await tripInScope(deps.db, ops, tripId);
  requirePostable(trip);
  const ev = await namedEvidence(deps.db, trip.id, body);
  const pricedCharges = priceWithAdministration(body.type, body.quantity, body.cents, ev.kinds);
  const { ids } = await transact(deps.db, async (trx) => {
    const locked = await trips.lockReservation(trx, trip.id);
    const written = await writeCharges(
      trx,
      { ...trip, status: locked.status },
      { priced: pricedCharges, reason: body.reason, evidence: { ...body, files: ev.files } },
      ops.staff.id,
      ops.now,
    );
    await ops.audit(trx, {
      target: { type: 'trip', id: trip.id },
      locationId: String(trip.pickup_location_id),
      after: {
        charges: written.ids,
        type: body.type,
        amounts: pricedCharges.map((p) => p.amount),
        reason: body.reason,
        evidence: ev.kinds.length,
      },
    });
    return written;
  });
  await collectAndTell(deps, trip, ids);
  return staffCharges(deps.db, await repo.chargesByIds(deps.db, ids));
}

/**
 * After a posting commits: the parts the hold cannot cover are charged to the card, and the renter
 * is told of each charge (its administration fee with it), with where its money comes from.
 */
export async function collectAndTell(deps: MoneyDeps, trip: repo.MoneyTrip, ids: readonly string[]): Promise<void> {
  for (const id of ids) await chargeCard(deps.payments, id);
  await tellPosted(deps.payments, trip.id, ids);
}

/** The renter is told of each charge (its administration fee with it) once, with where its money comes from. */
async function tellPosted(payments: SyncDeps, tripId: string, ids: readonly string[]): Promise<void> {
  const messages = payments.messages;
  if (!messages) return;
  const rows = await repo.chargesByIds(payments.db, ids);
  const b = await bundle(payments.db, rows);
  for (const row of rows.filter((r) => r.administration_of === null)) {
    const family = rows.filter((r) => r.id === row.id || r.administration_of === row.id);
    const money = family.map((r) => moneyOf(b.items.get(r.id) ?? []));
    const amount = family.reduce((s, r) => s + r.amount, 0);
    const owed = money.some((m) => m.owed > 0);
    const card = money.some((m) => m.toCard > 0);
    const now = payments.clock();
    await transact(payments.db, (trx) =>
      messages.record(
        trx,
        tripId,
        now,
        {
          kind: 'charge_posted',
          chargeId: row.id,
          label:
            family.length > 1
              ? `${FEE_CATALOGUE[row.fee_type].label} (with its fee)`
              : FEE_CATALOGUE[row.fee_type].label,
          amountCents: amount,
          paidFrom: owed ? 'owed' : card ? 'card' : 'deposit',
          disputeUntil: disputeOpenUntil(new Date(row.posted_at)),
        },
        `${tripId}:charge_posted:${row.id}`,
      ),
    );
  }
}

/**
 * Charges a charge's owed items to the trip's card, off-session, as one PaymentIntent: the payment
 * row (marked off-session) and its links are written first, under the trip's lock, then the charge
 * is taken at the provider (`takeCardCharge`). A disputed charge waits.
 */
export async function chargeCard(payments: SyncDeps, chargeId: string): Promise<'charged' | 'owed' | 'nothing'> {
  crashPoint('charge-before-payment-row');
  const { db, gateway } = payments;
  const now = payments.clock();
  const planned = await transact(db, async (trx) => {
    const charge = await repo.findCharge(trx, chargeId);
    if (!charge) return null;
    const trip = await trips.lockReservation(trx, charge.reservation_id);
    const locked = await repo.lockCharge(trx, chargeId);
    if (!locked || locked.status === 'disputed' || locked.status === 'refunded') return null;
    const items = await repo.unlinkedPendingItems(trx, chargeId);
    const amount = items.reduce((s, t) => s + net(t), 0);
    if (items.length === 0 || amount <= 0 || !trip.user_id) return null;
    const card = await repo.tripCard(trx, trip.id);
    if (!card?.payment_method_id) {
      await repo.setChargeStatus(trx, [chargeId], 'owed', now);
      return { owedWithoutCard: true as const };
    }
    const payment = await payRepo.insertPayment(trx, {
      reservation_id: trip.id,
      user_id: trip.user_id,
      kind: 'CHARGE',
      provider: gateway.kind,
      amount,
      capture_method: 'automatic',
      off_session: true,
      now,
    });
    await payRepo.linkTransactions(
      trx,
      items.map((t) => t.id),
      payment.id,
    );
    return { payment, pm: card.payment_method_id };
  });
  if (!planned) return 'nothing';
  if ('owedWithoutCard' in planned) return 'owed';
  crashPoint('charge-after-payment-row');
  return takeCardCharge(payments, planned.payment, planned.pm, [chargeId]);
}

/** An intent that waits for its card: confirmed off-session unless a card was already refused on it. */
const WAITS_FOR_CARD: readonly string[] = ['requires_payment_method', 'requires_confirmation'];

/**
 * Takes an off-session card charge at the provider and settles it, for the request and for the job
 * finishing one cut off midway alike. Our row without an intent gets one made with the idempotency
 * key from the row (so an intent the provider made before a cut-off comes back, not a second one);
 * an intent our row knows is read first: succeeded, it is only synced; waiting for its card, it is
 * confirmed off-session with a key from the row too; one a card already refused is not tried
 * again. A refused card (declined, or needing the renter) cancels the intent, so its items are owed
 * as the renter's balance. The charges it carries are marked charged or owed from what the provider says.
 */
async function takeCardCharge(
  payments: SyncDeps,
  payment: { id: string; reservation_id: string; user_id: string; amount: number; provider_intent_id: string | null },
  pm: string,
  chargeIds: readonly string[],
): Promise<'charged' | 'owed'> {
  const { db, gateway } = payments;
  let intentId = payment.provider_intent_id;
  let status: string;
  let refused = false;
  if (intentId === null) {
    const customerId = await ensureCustomer(payments, payment.user_id);
    const intent = await gateway.createPaymentIntent({
      customerId,
      amount: payment.amount,
      currency: 'usd',
      captureMethod: 'automatic',
      metadata: { reservation_id: payment.reservation_id, payment_id: payment.id, kind: 'CHARGE' },
      idempotencyKey: `payment-${payment.id}`,
    });
    crashPoint('charge-after-intent-created');
    await payRepo.setIntent(db, payment.id, intent, payments.clock());
    intentId = intent.id;
    status = intent.status;
  } else {
    const current = await gateway.retrievePaymentIntent(intentId);
    status = current.status;
    refused = current.last_error !== null;
  }
  crashPoint('charge-before-confirm');
  let succeeded = status === 'succeeded';
  if (WAITS_FOR_CARD.includes(status) && !refused) {
    try {
      const confirmed = await gateway.confirmOffSession(intentId, pm, `payment-${payment.id}-confirm`);
      succeeded = confirmed.status === 'succeeded';
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'UNPROCESSABLE')) throw err;
      payments.log?.warn({ err, paymentId: payment.id }, 'the card refused a charge after the trip; it is owed');
    }
    if (succeeded) crashPoint('charge-after-confirm');
  }
  await syncPaymentIntent(payments, intentId);
  if (!succeeded) {
    // The intent is left needing the renter (declined, or authentication): cancelled, so its items are owed.
    const current = await gateway.retrievePaymentIntent(intentId);
    if (current.status !== 'succeeded' && current.status !== 'canceled') await gateway.cancel(intentId);
    await syncPaymentIntent(payments, intentId);
  }
  const settled = (await gateway.retrievePaymentIntent(intentId)).status === 'succeeded';
  await transact(db, (trx) => repo.setChargeStatus(trx, chargeIds, settled ? 'charged' : 'owed', payments.clock()));
  return settled ? 'charged' : 'owed';
}

/** How long a card charge after the trip may wait between its row and its settling before the job finishes it. */
export const CARD_CHARGE_WAIT_MS = 2 * 60_000;

/**
 * The job 'finish-card-charges' (decision 091): a card charge after the trip cut off midway — the
 * process stopped after its payment row, or after the provider made or confirmed its intent — is
 * finished as the request would have finished it (`takeCardCharge`): read at the provider first,
 * synced if it succeeded, confirmed if it waits, its intent made (same key) if it has none, owed if
 * the card refuses. Then what the posting would have done next: the charge's administration fee
 * charged too if it never was, and the renter told once. A charge disputed (or refunded) meanwhile
 * is not taken: its payment is retired and canceled, as the pay page retires one. A charge cut off
 * before its payment row was written (its items pending with no payment) is charged as the posting
 * would have, and told. The number finished.
 */
export async function finishCardCharges(payments: SyncDeps): Promise<number> {
  const now = payments.clock();
  const due = await repo.unfinishedCardCharges(payments.db, new Date(now.getTime() - CARD_CHARGE_WAIT_MS), 50);
  let finished = 0;
  for (const p of due) {
    try {
      const step = await transact(payments.db, async (trx) => {
        await trips.lockReservation(trx, p.reservation_id);
        const row = await payRepo.lockPayment(trx, p.id);
        if (!(payRepo.OPEN_STATUSES as readonly string[]).includes(row.status)) return null;
        const charges = await repo.chargesOfPayment(trx, p.id);
        const card = await repo.tripCard(trx, p.reservation_id);
        const waits = charges.some((c) => c.status === 'disputed' || c.status === 'refunded');
        if (waits || !card?.payment_method_id) {
          await payRepo.retireCharges(trx, [p.id], now);
          return { retired: true as const };
        }
        return { charges, pm: card.payment_method_id, row };
      });
      if (!step) continue;
      if ('retired' in step) {
        await cancelRetiredCharges(payments, { reservationId: p.reservation_id });
      } else {
        const ids = step.charges.map((c) => c.id);
        await takeCardCharge(payments, step.row, step.pm, ids);
        const roots = [...new Set(step.charges.map((c) => c.administration_of ?? c.id))];
        const family = [...roots];
        for (const root of roots) family.push(...(await repo.administrationFees(payments.db, root)));
        for (const other of await repo.chargesByIds(payments.db, family))
          if (other.status === 'posted' && !ids.includes(other.id)) await chargeCard(payments, other.id);
        await tellPosted(payments, p.reservation_id, family);
      }
      finished += 1;
    } catch (err) {
      payments.log?.error(
        { err, paymentId: p.id },
        'a card charge after the trip could not be finished now; retried at the next run',
      );
    }
  }
  // Cut off before its payment row: the charge (with its administration fee) is charged as the posting would have.
  const uncollected = await repo.uncollectedCharges(payments.db, new Date(now.getTime() - CARD_CHARGE_WAIT_MS), 50);
  for (const root of new Set(uncollected.map((c) => c.administration_of ?? c.id))) {
    try {
      const family = [root, ...(await repo.administrationFees(payments.db, root))];
      let charged = false;
      for (const c of uncollected.filter((u) => family.includes(u.id)))
        if ((await chargeCard(payments, c.id)) !== 'nothing') charged = true;
      if (!charged) continue;
      await tellPosted(payments, uncollected.find((c) => family.includes(c.id))!.reservation_id, family);
      finished += 1;
    } catch (err) {
      payments.log?.error(
        { err, chargeId: root },
        'a charge after the trip could not be charged now; retried at the next run',
      );
    }
  }
  return finished;
}

// ---- the renter's dispute ----

export async function openDispute(deps: MoneyDeps, userId: string, chargeId: string, text: string): Promise<void> {
  const now = deps.payments.clock();
  await transact(deps.db, async (trx) => {
    const charge = await repo.findCharge(trx, chargeId);
    if (!charge || charge.user_id !== userId) throw notFound(CHARGE_NOT_FOUND, 'chargeId');
    await trips.lockReservation(trx, charge.reservation_id);
    const locked = (await repo.lockCharge(trx, chargeId))!;
    const [existing] = await repo.disputesOfCharges(trx, [chargeId]);
    const money = moneyOf(await repo.chargeItems(trx, [chargeId]));
    const check = canDispute(
      { status: chargeStatusOf(money, existing ?? null), postedAt: new Date(locked.posted_at), disputed: !!existing },
      now,
    );
    if (!check.ok) throw new AppError(check.status === 409 ? 'CONFLICT' : 'UNPROCESSABLE', check.message, 'chargeId');
    await repo.insertDispute(trx, chargeId, text, now);
    // Not yet taken: it waits, off the hold, until the dispute is decided. Taken: it stays.
    await repo.unlinkFromHold(trx, chargeId);
    // A ticket's administration fee is disputed with its ticket.
    const family = await repo.administrationFees(trx, chargeId);
    for (const f of family) await repo.unlinkFromHold(trx, f);
    await repo.setChargeStatus(trx, [chargeId, ...family], 'disputed', now);
  });
}

// ---- the dispute queue ----

function locationScope(ops: OpsContext): readonly number[] | 'all' {
  const ids = ops.staff.locationIds;
  return ops.staff.role === 'owner' || ids === 'all' ? 'all' : ids.map(Number);
}

export async function disputeQueue(
  deps: MoneyDeps,
  ops: OpsContext,
  q: z.output<typeof DisputesQuery>,
): Promise<z.input<typeof DisputeQueue>> {
  if (q.locationId !== undefined && !ops.inScope(String(q.locationId))) return { items: [], total: 0 };
  const scope = q.locationId !== undefined ? [q.locationId] : locationScope(ops);
  const { rows, total } = await repo.disputeQueue(deps.db, {
    state: q.state,
    locationIds: scope,
    limit: q.limit,
    offset: q.offset,
  });
  const charges = await staffCharges(
    deps.db,
    await repo.chargesByIds(
      deps.db,
      rows.map((r) => r.charge_id),
    ),
  );
  const names = new Map<string, string | null>();
  for (const c of charges) {
    if (!names.has(c.tripId)) names.set(c.tripId, (await repo.tripForMoney(deps.db, c.tripId))?.renter_name ?? null);
  }
  return {
    items: rows.map((r) => {
      const charge = charges.find((c) => c.id === r.charge_id)!;
      return {
        dispute: charge.dispute!,
        charge,
        locationId: String(r.pickup_location_id),
        renterName: names.get(charge.tripId) ?? null,
      };
    }),
    total,
  };
}

/**
 * Staff decide a dispute. Accepting refunds what was taken of the charge (and its administration
 * fee) and drops what was not; rejecting keeps it, and one that waited is collected now (from the
 * hold while it can still cover it, else the card). Both are audited and the renter is told.
 */
export async function decideDispute(
  deps: MoneyDeps,
  ops: OpsContext,
  disputeId: string,
  outcome: 'accepted' | 'rejected',
  reason: string,
): Promise<{ dispute: Dispute; charge: Charge; refund: Refund | null }> {
  const found = await repo.findDispute(deps.db, disputeId);
  if (!found) throw notFound(DISPUTE_NOT_FOUND, 'disputeId');
  ops.requireInScope(String(found.pickup_location_id), DISPUTE_NOT_FOUND);
  if (found.outcome) throw new AppError('CONFLICT', `This dispute was already ${found.outcome}.`, 'disputeId');
  const family = [found.charge_id, ...(await repo.administrationFees(deps.db, found.charge_id))];
  let refunded: Refund | null = null;
  if (outcome === 'accepted') {
    // What was taken is given back first, from each payment that took it, before the decision is written.
    const items = await repo.chargeItems(deps.db, family);
    const paymentIds = [
      ...new Set(items.filter((t) => t.status === 'Successful' && t.payment_id).map((t) => t.payment_id!)),
    ];
    for (const paymentId of paymentIds) {
      for (const chargeId of family) {
        const part = items
          .filter((t) => t.charge_id === chargeId && t.payment_id === paymentId && t.status === 'Successful')
          .reduce((s, t) => s + net(t), 0);
        if (part <= 0) continue;
        const r = await refundPayment(deps, ops, {
          paymentId,
          cents: part,
          reason: `Dispute accepted: ${reason || 'the charge is withdrawn'}`,
          disputeId,
          chargeId,
        });
        refunded ??= r;
      }
    }
  }
  const now = ops.now;
  await transact(deps.db, async (trx) => {
    await trips.lockReservation(trx, found.reservation_id);
    const d = await repo.lockDispute(trx, disputeId);
    if (d?.outcome) throw new AppError('CONFLICT', `This dispute was already ${d.outcome}.`, 'disputeId');
    // Every refund made for this dispute, those of an earlier attempt the job finished included.
    const refundTotal = (await repo.refundsOfTrip(trx, found.reservation_id))
      .filter((r) => r.dispute_id === disputeId)
      .reduce((s, r) => s + r.amount, 0);
    await repo.decideDispute(trx, disputeId, {
      outcome,
      staff_reason: reason,
      decided_by: ops.staff.id,
      decided_at: now,
    });
    if (outcome === 'accepted') {
      for (const id of family) await repo.cancelPendingItems(trx, id, now);
      await repo.setChargeStatus(trx, family, 'refunded', now);
    } else {
      await repo.setChargeStatus(trx, family, 'upheld', now);
      // A charge that waited goes back on the hold while the trip's hold can still cover it.
      const hold = await holds.liveHold(trx, found.reservation_id);
      if (hold) {
        let room = hold.amount - (await holds.feesOnHold(trx, hold.id));
        for (const id of family) {
          const waiting = await repo.unlinkedPendingItems(trx, id);
          const sum = waiting.reduce((s, t) => s + net(t), 0);
          if (waiting.length > 0 && sum <= room) {
            await repo.linkToHold(
              trx,
              waiting.map((t) => t.id),
              hold.id,
            );
            room -= sum;
          }
        }
      }
    }
    await ops.audit(trx, {
      target: { type: 'trip', id: found.reservation_id },
      locationId: String(found.pickup_location_id),
      after: { dispute: disputeId, charge: found.charge_id, outcome, reason, refundedCents: refundTotal },
    });
    const charge = (await repo.findCharge(trx, found.charge_id))!;
    await deps.payments.messages?.record(
      trx,
      found.reservation_id,
      now,
      {
        kind: 'dispute_decided',
        chargeId: found.charge_id,
        label: FEE_CATALOGUE[charge.fee_type].label,
        outcome,
        refundCents: refundTotal,
        reason,
      },
      `${found.reservation_id}:dispute_decided:${disputeId}`,
    );
  });
  if (outcome === 'rejected') for (const id of family) await chargeCard(deps.payments, id);
  const [row] = await repo.chargesByIds(deps.db, [found.charge_id]);
  const [charge] = await staffCharges(deps.db, [row!]);
  return { dispute: charge!.dispute!, charge: charge!, refund: refunded };
}

// ---- refunds ----

/**
 * Refunds `cents` (or all that is left) of one payment: checked against the role's limit and the
 * provider's own record of what is left, recorded, made at the provider with an idempotency key
 * from the record, then closed (`closeRefund`): the ledger gives back the paid items, with the
 * audit record and the renter's message unless it is a dispute's refund. A refusal by the provider
 * leaves nothing.
 */
export async function refundPayment(
  deps: MoneyDeps,
  ops: OpsContext,
  input: {
    paymentId: string;
    cents?: number | undefined;
    reason: string;
    /** A dispute's refund: its decision writes its own audit record and tells the renter the outcome. */
    disputeId?: string | null;
    chargeId?: string | null;
  },
): Promise<Refund> {
  const p = await repo.findPaymentForRefund(deps.db, input.paymentId);
  if (!p?.provider_intent_id) throw notFound(PAYMENT_NOT_FOUND, 'paymentId');
  ops.requireInScope(String(p.pickup_location_id), PAYMENT_NOT_FOUND);
  const intent = await deps.payments.gateway.retrievePaymentIntent(p.provider_intent_id);
  const left = refundableCents({ captured: intent.amount_received, refunded: intent.amount_refunded });
  if (intent.status !== 'succeeded' || left <= 0)
    throw new AppError('CONFLICT', 'Nothing of this payment is left to refund.', 'paymentId');
  const cents = input.cents ?? left;
  if (cents > left)
    throw new AppError('UNPROCESSABLE', `At most ${formatTotal(left)} of this payment is left to refund.`, 'cents');
  if (input.disputeId == null && !mayRefund(ops.staff.role, cents)) {
    const limit = REFUND_LIMIT_CENTS[ops.staff.role];
    throw new AppError(
      'FORBIDDEN',
      limit
        ? `Your role can refund at most ${formatTotal(limit)} at a time; ask an owner to refund ${formatTotal(cents)}.`
        : 'Your role cannot refund payments; ask a manager.',
      'cents',
    );
  }
  const now = ops.now;
  const record = await transact(deps.db, async (trx) => {
    await trips.lockReservation(trx, p.reservation_id);
    await payRepo.lockPayment(trx, p.id);
    // A refund whose answer never came may have given money back: none more until it is finished.
    if (await repo.lockUnfinishedRefund(trx, { paymentId: p.id }))
      throw new AppError(
        'CONFLICT',
        'A refund of this payment is still being confirmed with the card company; try again in a few minutes.',
        'paymentId',
      );
    return repo.insertRefund(trx, {
      payment_id: p.id,
      reservation_id: p.reservation_id,
      amount: cents,
      reason: input.reason,
      issued_by: ops.staff.id,
      dispute_id: input.disputeId ?? null,
      created_at: now,
    });
  });
  let providerRefundId: string;
  try {
    providerRefundId = await deps.payments.gateway.refund(p.provider_intent_id, cents, `staff-refund-${record.id}`);
  } catch (err) {
    // Refused: nothing was given back, and the record goes. Any other failure (no answer) may have
    // refunded: the record stays, and the 'finish-staff-refunds' job finishes it (decision 093).
    if (err instanceof AppError && err.code === 'UNPROCESSABLE') await repo.deleteRefund(deps.db, record.id);
    throw err;
  }
  await closeRefund(
    deps.payments,
    { ...record, pickup_location_id: p.pickup_location_id, charge_id: input.chargeId ?? null },
    providerRefundId,
    now,
    input.disputeId == null ? ops.audit : false,
  );
  await syncPaymentIntent(deps.payments, p.provider_intent_id);
  const [row] = (await repo.refundsOfTrip(deps.db, p.reservation_id)).filter((r) => r.id === record.id);
  return refundView(row!);
}

/** What closing a staff refund needs: its record, where its trip is, and the charge it gives back first. */
interface RefundToClose {
  id: string;
  payment_id: string;
  reservation_id: string;
  pickup_location_id: number;
  amount: number;
  reason: string;
  charge_id: string | null;
}

/**
 * Closes a staff refund the provider answered, in one transaction, for the request and the job
 * alike: the record takes the provider's id and the payment's paid items are given back; then
 * `auditAndTell` writes the audit record and the renter is told (`refund_made`). A dispute's refund
 * passes false: its decision writes its own record and tells the renter the outcome (decision 091),
 * so nobody gets a second, different message. False when another run closed it first.
 */
async function closeRefund(
  payments: SyncDeps,
  r: RefundToClose,
  providerRefundId: string,
  now: Date,
  auditAndTell: OpsContext['audit'] | false,
): Promise<boolean> {
  return transact(payments.db, async (trx) => {
    await trips.lockReservation(trx, r.reservation_id);
    if (!(await repo.lockUnfinishedRefund(trx, { refundId: r.id }))) return false;
    await repo.setProviderRefund(trx, r.id, providerRefundId);
    await giveBackItems(trx, r.payment_id, r.amount, r.charge_id);
    if (auditAndTell === false) return true;
    await auditAndTell(trx, {
      target: { type: 'trip', id: r.reservation_id },
      locationId: String(r.pickup_location_id),
      after: { refund: r.id, payment: r.payment_id, cents: r.amount, reason: r.reason },
    });
    if (payments.messages)
      await recordMoneyMoved(
        payments.messages,
        trx,
        r.reservation_id,
        now,
        { kind: 'refund_made', amountCents: r.amount },
        `staff-${r.id}`,
      );
    return true;
  });
}

/** Marks `cents` of the payment's paid items given back, the charge's own first, splitting where a part of one is. */
async function giveBackItems(
  trx: Parameters<Parameters<typeof transact>[1]>[0],
  paymentId: string,
  cents: number,
  chargeId: string | null,
) {
  let remaining = cents;
  const preferred = chargeId ? await repo.refundableItems(trx, paymentId, chargeId) : [];
  const rest = await repo.refundableItems(trx, paymentId, null);
  const ordered = [...preferred, ...rest.filter((t) => !preferred.some((x) => x.id === t.id))];
  for (const t of ordered) {
    if (remaining <= 0) break;
    const paid = net(t);
    if (paid <= 0) continue;
    const part = Math.min(remaining, paid);
    await repo.splitRefunded(trx, t.id, part, part === paid);
    remaining -= part;
  }
}

/** How long a staff refund waits for the provider's answer before the job finishes it. */
export const REFUND_ANSWER_WAIT_MS = 2 * 60_000;

/**
 * The job 'finish-staff-refunds' (decision 093): a staff refund recorded but never answered by the
 * provider (the call timed out, the process stopped) is asked again with its own idempotency key,
 * so the provider answers with the refund it made, or makes it now as staff asked. A refusal
 * removes the record; an answer is closed as the request would have closed it (`closeRefund`): the
 * ledger, and for a staff refund the audit record (as the staff member who asked) and the renter's
 * message; a dispute's refund leaves both to the dispute's decision. The number finished.
 */
export async function finishStaffRefunds(payments: SyncDeps): Promise<number> {
  const now = payments.clock();
  const due = await repo.unfinishedRefunds(payments.db, new Date(now.getTime() - REFUND_ANSWER_WAIT_MS), 50);
  let finished = 0;
  for (const r of due) {
    try {
      let providerRefundId: string;
      try {
        providerRefundId = await payments.gateway.refund(r.provider_intent_id!, r.amount, `staff-refund-${r.id}`);
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'UNPROCESSABLE')) throw err;
        await repo.deleteRefund(payments.db, r.id);
        continue;
      }
      // As the staff member who asked, marked finished later; a dispute's refund is left to its decision.
      const asked: OpsContext['audit'] = (trx, entry) =>
        recordAudit(trx, {
          at: now,
          staff: r.issued_by && r.staff_role ? { id: r.issued_by, role: r.staff_role } : null,
          action: 'refunds.issue',
          ...entry,
          after: { ...(entry.after as object), finishedLater: true },
          outcome: 'success',
        }).then(() => undefined);
      if (!(await closeRefund(payments, r, providerRefundId, now, r.dispute_id === null ? asked : false))) continue;
      await syncPaymentIntent(payments, r.provider_intent_id!);
      finished += 1;
    } catch (err) {
      payments.log?.error({ err, refundId: r.id }, 'a staff refund could not be finished now; retried at the next run');
    }
  }
  return finished;
}

export async function issueRefund(
  deps: MoneyDeps,
  ops: OpsContext,
  paymentId: string,
  body: z.output<typeof NewRefund>,
): Promise<{ refund: Refund; payment: TripPayment }> {
  const refund = await refundPayment(deps, ops, { paymentId, cents: body.cents, reason: body.reason });
  const pays = await repo.paymentsOfTrip(deps.db, refund.tripId);
  const labels = await repo.chargeLabelsByPayment(deps.db, refund.tripId);
  const labelOf = new Map<string, string>();
  for (const l of labels) if (l.payment_id) labelOf.set(l.payment_id, `Charge: ${l.description}`);
  return {
    refund,
    payment: paymentView(
      pays.find((x) => x.id === paymentId)!,
      labelOf,
    ),
  };
}

// ---- deposits ----

export async function listDeposits(
  deps: MoneyDeps,
  ops: OpsContext,
  q: z.output<typeof DepositsQuery>,
): Promise<{ deposits: DepositHold[]; total: number }> {
  if (q.locationId !== undefined && !ops.inScope(String(q.locationId))) return { deposits: [], total: 0 };
  const { rows, total } = await repo.listHolds(deps.db, { ...q, locationIds: locationScope(ops) });
  return { deposits: rows.map(depositView), total };
}

async function holdInScope(deps: MoneyDeps, ops: OpsContext, paymentId: string) {
  const h = await repo.findHold(deps.db, paymentId);
  if (!h) throw notFound(HOLD_NOT_FOUND, 'paymentId');
  ops.requireInScope(String(h.pickup_location_id), HOLD_NOT_FOUND);
  if (h.status !== 'requires_capture')
    throw new AppError(
      'CONFLICT',
      `This hold is ${DEPOSIT_STATUS_LABELS[depositStatus(h)].toLowerCase()}; only a held deposit can be settled.`,
      'paymentId',
    );
  if (h.trip_status !== 'Returned')
    throw new AppError('CONFLICT', 'A deposit is settled after the trip is returned; this trip is not.', 'paymentId');
  return h;
}

/**
 * Settles a returned trip's hold now: one partial capture of everything linked to it (the return's
 * fees, charges posted in the review), the rest released; released whole when nothing is linked.
 * Recorded once, audited, and the renter told.
 */
async function settleHold(deps: MoneyDeps, ops: OpsContext, h: repo.HoldRow, reason: string, chargeIds: string[]) {
  await settleReturnedDeposit(deps.payments, h.reservation_id);
  const after = (await repo.findHold(deps.db, h.id))!;
  if (after.status === 'requires_capture')
    throw new AppError('UNAVAILABLE', 'The card provider did not settle the hold; try again in a minute.', undefined, {
      retryAfterSeconds: 30,
    });
  const how = after.status === 'succeeded' ? 'captured' : 'released';
  const now = ops.now;
  await transact(deps.db, async (trx) => {
    await holds.recordSettlement(trx, {
      payment_id: h.id,
      reservation_id: h.reservation_id,
      review_ends_at: depositReviewEndsAt(new Date(h.returned_at ?? now)),
      settled_at: now,
      settled_by: ops.staff.id,
      settled_how: how,
    });
    await holds.markCollected(trx, h.id, now);
    await ops.audit(trx, {
      target: { type: 'trip', id: h.reservation_id },
      locationId: String(h.pickup_location_id),
      before: { status: 'held', amount: h.amount, linkedCents: Number(h.linked) },
      after: { deposit: h.id, settled: how, capturedCents: after.amount_captured, reason, charges: chargeIds },
    });
    await deps.payments.messages?.record(
      trx,
      h.reservation_id,
      now,
      {
        kind: 'deposit_settled',
        capturedCents: after.amount_captured,
        releasedCents: h.amount - after.amount_captured,
      },
      `${h.reservation_id}:deposit_settled:${h.id}`,
    );
  });
  return depositView((await repo.findHold(deps.db, h.id))!);
}

export async function releaseDeposit(deps: MoneyDeps, ops: OpsContext, paymentId: string, reason: string) {
  const h = await holdInScope(deps, ops, paymentId);
  const deposit = await settleHold(deps, ops, h, reason, []);
  return { deposit, charges: await staffCharges(deps.db, await repo.chargesOfTrip(deps.db, h.reservation_id)) };
}

/** Captures part of a returned trip's hold: a charge of the catalogue, with its reason and evidence, then the hold settled. */
export async function captureDeposit(
  deps: MoneyDeps,
  ops: OpsContext,
  paymentId: string,
  body: z.output<typeof CaptureDeposit>,
) {
  const h = await holdInScope(deps, ops, paymentId);
  const trip = (await repo.tripForMoney(deps.db, h.reservation_id))!;
  const ev = await namedEvidence(deps.db, trip.id, body);
  const pricedCharges = priceWithAdministration(body.type, body.quantity, body.cents, ev.kinds);
  const total = pricedCharges.reduce((s, p) => s + p.amount, 0);
  const room = h.amount - Number(h.linked);
  if (total > room)
    throw new AppError(
      'UNPROCESSABLE',
      `The hold can cover ${formatTotal(Math.max(0, room))} more; post a charge instead to take ${formatTotal(total)} (the rest goes to the card).`,
      'cents',
    );
  const { ids } = await transact(deps.db, async (trx) => {
    const locked = await trips.lockReservation(trx, trip.id);
    const written = await writeCharges(
      trx,
      { ...trip, status: locked.status },
      { priced: pricedCharges, reason: body.reason, evidence: { ...body, files: ev.files } },
      ops.staff.id,
      ops.now,
    );
    if (written.toCard > 0) throw new AppError('CONFLICT', 'The hold changed meanwhile; try again.', 'cents');
    await ops.audit(trx, {
      target: { type: 'trip', id: trip.id },
      locationId: String(trip.pickup_location_id),
      after: {
        charges: written.ids,
        type: body.type,
        amounts: pricedCharges.map((p) => p.amount),
        reason: body.reason,
      },
    });
    return written;
  });
  await collectAndTell(deps, trip, ids);
  const deposit = await settleHold(deps, ops, h, body.reason, ids);
  return { deposit, charges: await staffCharges(deps.db, await repo.chargesByIds(deps.db, ids)) };
}
