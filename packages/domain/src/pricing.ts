import { ADDON_LABELS, type AddonType } from './constants.ts';
import { type ChargeFrequency, TAX_LABEL, addonTotal, rentalLabel } from './line-items.ts';
import { applyRatePpm, assertCents } from './money.ts';

export interface PricedAddon {
  id: string;
  type: AddonType;
  amount: number;
  frequency: ChargeFrequency;
}

export interface QuoteInput {
  rackRateCents: number;
  days: number;
  addons?: readonly PricedAddon[];
  taxRatePpm: number;
}

export interface QuoteLine {
  kind: 'RACK' | 'ADDON' | 'TAX';
  label: string;
  addonType?: AddonType;
  unitCents: number;
  quantity: number;
  amountCents: number;
}

export interface Quote {
  days: number;
  lines: QuoteLine[];
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
}

/**
 * The one price function: rack rate × rental days, plus add-ons (per day or one-off), plus sales
 * tax on that subtotal, rounded half away from zero to the cent. Cards, markers, the booking card
 * and checkout all call this, so the first price a renter sees is the price they pay.
 */
export function quoteTrip(input: QuoteInput): Quote {
  const { rackRateCents, days, taxRatePpm } = input;
  assertCents(rackRateCents);
  if (!Number.isInteger(days) || days < 0) throw new RangeError(`Rental days must be a whole number ≥ 0: ${days}`);
  const lines: QuoteLine[] = [];
  lines.push({
    kind: 'RACK',
    label: rentalLabel(days),
    unitCents: rackRateCents,
    quantity: days,
    amountCents: rackRateCents * days,
  });
  for (const addon of input.addons ?? []) {
    assertCents(addon.amount);
    const quantity = addon.frequency === 'DAY' ? days : 1;
    lines.push({
      kind: 'ADDON',
      label: ADDON_LABELS[addon.type],
      addonType: addon.type,
      unitCents: addon.amount,
      quantity,
      amountCents: addonTotal(addon, days),
    });
  }
  const subtotalCents = lines.reduce((sum, l) => sum + l.amountCents, 0);
  const taxCents = applyRatePpm(subtotalCents, taxRatePpm);
  lines.push({ kind: 'TAX', label: TAX_LABEL, unitCents: taxCents, quantity: 1, amountCents: taxCents });
  return { days, lines, subtotalCents, taxCents, totalCents: subtotalCents + taxCents };
}
