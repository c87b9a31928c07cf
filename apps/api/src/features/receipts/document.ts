import { formatInstantInZone } from '@ampere/domain/format';
import type { ReceiptView } from '@ampere/domain/receipt';
import { Layout, MUTED } from '../../pdf/layout.ts';

/** Everything printed on a receipt PDF: the domain's worded receipt, and what frames it. */
export interface ReceiptDocument {
  productName: string;
  platformId: string;
  /** The pickup place, named and located. */
  place: string;
  view: ReceiptView;
  issuedAt: Date;
  /** The pickup place's zone: the time of issue is shown on its clock, as every other time. */
  timeZone: string;
}

const ROW_HEIGHT = 14;

/**
 * Renders the receipt as Letter pages: the same words and numbers as the receipt pages (both come
 * from the domain's `receiptView`), every card expanded, each kept on one page where it fits.
 * Same input, same bytes.
 */
export async function renderReceipt(d: ReceiptDocument): Promise<Uint8Array> {
  const v = d.view;
  const out = new Layout({
    productName: d.productName,
    title: `${d.productName} Receipt - Trip ${d.platformId}`,
    subject: `Receipts for trip ${d.platformId}`,
    at: d.issuedAt,
  });
  const { fonts } = out;
  out.text(d.productName, { font: fonts.bold, size: 20, leading: 1 });
  out.drawRight(v.heading, fonts.bold, 15);
  out.gap(6);
  out.text(`Trip ${d.platformId}  ·  Issued ${formatInstantInZone(d.issuedAt, d.timeZone)}`, {
    size: 8.5,
    color: MUTED,
  });
  out.gap(2);
  out.rule();

  out.heading('Trip');
  if (v.refunds) {
    out.amountRow('Paid', v.refunds.paid);
    out.amountRow('Refunded', v.refunds.refunded);
  }
  out.amountRow('Total paid', v.total, { bold: true });
  out.gap(4);
  out.field('Vehicle', v.vehicle);
  out.field('VIN', v.vin);
  out.field('From', v.from);
  out.field('To', v.to);
  out.field('Pickup place', d.place);
  out.field('Damage Waiver', v.waiver.text);
  for (const reading of v.readings) out.field(reading.label, reading.value);

  if (v.cards.length === 0) {
    out.gap(8);
    out.text('No payments on this trip yet.');
  }
  for (const card of v.cards) {
    // A card stays on one page when it fits on one.
    const rows = card.lines.length + (card.story ? 1 : 0) + (card.paidWith ? 1 : 0);
    out.heading(card.title, ROW_HEIGHT * (rows + 3));
    out.text(`${card.label}  ·  ${card.date}`, { size: 9, color: MUTED });
    out.gap(2);
    if (card.story) out.text(card.story);
    for (const line of card.lines) out.amountRow(line.note ? `${line.label} (${line.note})` : line.label, line.amount);
    out.gap(3);
    out.rule();
    out.amountRow(card.totalLabel, card.total, { bold: true });
    if (card.paidWith) out.text(card.paidWith, { size: 9, color: MUTED });
  }

  return out.finish((page, pages) => `${d.productName} Receipt  ·  Trip ${d.platformId}  ·  Page ${page} of ${pages}`);
}
