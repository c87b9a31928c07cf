import { formatDateShort, formatInstantForRecord, formatInstantInZone } from '@ampere/domain/format';
import { formatTotal } from '@ampere/domain/money';
import { freeCancellationDeadline } from '@ampere/domain/booking';
import { Layout, MUTED } from '../../pdf/layout.ts';
import { AGREEMENT_TITLES } from './rules.ts';
import { type Clause, rentalTerms, waiverTerms } from './terms.ts';

export interface Place {
  at: Date;
  timeZone: string;
  name: string;
  address: string;
}

/** Everything printed in an agreement; amounts in cents. */
export interface AgreementDocument {
  productName: string;
  type: 'RENTAL_AGREEMENT' | 'DAMAGE_WAIVER';
  agreementId: string;
  platformId: string;
  vehicle: { year: number; model: string; color: string; vin: string };
  pickup: Place;
  return: Place;
  rentalDays: number;
  renter: { name: string; phone: string; email: string | null };
  rentalType: 'BUSINESS' | 'LEISURE';
  /** The rental agreement's charges (net of discounts, shown as their own lines). */
  lineItems: { description: string; amount: number }[];
  total: number;
  depositCents: number;
  hasCollisionProtection: boolean;
  /** The waiver's price, for DAMAGE_WAIVER. */
  waiver: { pricePerDay: number; days: number; total: number } | null;
  signature: string;
  /** YYYY-MM-DD, the date signed as the renter sent it. */
  signedOn: string;
  signedAt: Date;
  /** The trip's zone: the time of signing is shown in it. */
  timeZone: string;
  support: { email: string; phone: string };
}

const titleCase = (value: string) => value.charAt(0).toUpperCase() + value.slice(1).toLowerCase();

/** Renders the signed agreement as a PDF of one or two Letter pages. Same input, same bytes. */
export async function renderAgreement(d: AgreementDocument): Promise<Uint8Array> {
  const title = AGREEMENT_TITLES[d.type];
  const out = new Layout({
    productName: d.productName,
    title: `${d.productName} ${title} - Trip ${d.platformId}`,
    subject: `${title} for trip ${d.platformId}, signed by ${d.signature}`,
    at: d.signedAt,
  });
  const { fonts } = out;

  out.text(d.productName, { font: fonts.bold, size: 20, leading: 1 });
  out.drawRight(title, fonts.bold, 15);
  out.gap(6);
  out.text(`Trip ${d.platformId}  ·  Agreement ${d.agreementId}`, { size: 8.5, color: MUTED });
  out.gap(2);
  out.rule();

  out.heading('Trip');
  out.field('Trip ID', d.platformId);
  out.field('Vehicle', `${d.vehicle.year} ${d.vehicle.model}, ${titleCase(d.vehicle.color)}`);
  out.field('VIN', d.vehicle.vin);
  out.field('Pickup', formatInstantForRecord(d.pickup.at, d.pickup.timeZone));
  out.field('Pickup place', `${d.pickup.name}, ${d.pickup.address}`);
  out.field('Return', formatInstantForRecord(d.return.at, d.return.timeZone));
  out.field('Return place', `${d.return.name}, ${d.return.address}`);
  out.field('Rental days', String(d.rentalDays));

  out.heading('Renter');
  out.field('Name', d.renter.name);
  out.field('Phone', d.renter.phone);
  out.field('Email', d.renter.email ?? 'Not given');
  out.field('Rental type', titleCase(d.rentalType));

  const terms = {
    productName: d.productName,
    rentalDays: d.rentalDays,
    depositCents: d.depositCents,
    freeCancellationUntil: formatInstantInZone(
      freeCancellationDeadline(d.pickup.at, d.pickup.timeZone),
      d.pickup.timeZone,
    ),
    supportEmail: d.support.email,
    supportPhone: d.support.phone,
    hasCollisionProtection: d.hasCollisionProtection,
  };
  let clauses: Clause[];
  if (d.type === 'RENTAL_AGREEMENT') {
    out.heading('Charges');
    for (const item of d.lineItems) out.amountRow(item.description, formatTotal(item.amount));
    out.gap(3);
    out.rule();
    out.amountRow('Trip total', formatTotal(d.total), { bold: true });
    out.gap(4);
    out.text(
      `Security deposit: a ${formatTotal(d.depositCents)} hold on your card, released after the trip. It is not part of the total.`,
      { size: 8.5, color: MUTED },
    );
    clauses = rentalTerms(terms);
  } else {
    const w = d.waiver!;
    out.heading('Collision Protection');
    out.field('Daily price', `${formatTotal(w.pricePerDay)} per rental day`);
    out.field('Rental days', String(w.days));
    out.field('Total', `${formatTotal(w.total)} (${formatTotal(w.pricePerDay)} × ${w.days} days)`);
    clauses = waiverTerms({ ...terms, waiverPerDay: formatTotal(w.pricePerDay), waiverTotal: formatTotal(w.total) });
  }

  out.heading('Terms');
  clauses.forEach((clause, i) => {
    out.keep(40);
    out.text(`${i + 1}. ${clause.heading}`, { font: fonts.bold, size: 9.5 });
    out.text(clause.text, { size: 9, indent: 12, leading: 1.4 });
    out.gap(3);
  });

  // The whole signature block stays on one page.
  out.heading('Signature', 110);
  out.text(d.signature, { font: fonts.signature, size: 20, leading: 1.5 });
  out.rule();
  out.gap(2);
  out.field('Typed signature', d.signature);
  out.field('Signed by', `${d.renter.name}, the renter`);
  out.field('Time of signing', `${formatInstantForRecord(d.signedAt, d.timeZone)} (${d.signedAt.toISOString()})`);
  out.gap(4);
  out.text(`Signed electronically on ${formatDateShort(d.signedOn)}`, { font: fonts.bold, size: 10 });

  return out.finish(
    (page, pages) =>
      `${d.productName} ${title}  ·  Trip ${d.platformId}  ·  Agreement ${d.agreementId}  ·  Page ${page} of ${pages}`,
  );
}
