import { AT_COST_LIMIT_CENTS, type EvidenceKind, type FeeType } from '@ampere/domain/fees';
import { formatTotal } from '@ampere/domain/money';

/** How the console names a fee's unit after its price: '$1.50 a mile'. */
const PER_UNIT: Record<FeeType['unit'], string> = {
  OCCURRENCE: 'each time',
  MILEAGE: 'a mile',
  DAY: 'a day',
  ONE_TIME: 'once',
};

/** The catalogue's published price of a fee, in a line: what staff see before they post it. */
export function priceWords(fee: FeeType): string {
  const price = fee.price;
  switch (price.kind) {
    case 'fixed':
      return `${formatTotal(price.cents)} ${PER_UNIT[fee.unit]}`;
    case 'atCost':
      return `At cost: what the bill says, up to ${formatTotal(AT_COST_LIMIT_CENTS)}`;
    case 'assessed':
      return `Assessed from the evidence, up to ${formatTotal(price.maxCents)}`;
    case 'banded':
      return `By the ${price.of}: ${price.bands.map((b) => `${b.from}–${b.to} ${formatTotal(b.cents)}`).join(', ')}`;
  }
}

const KIND_WORDS: Record<EvidenceKind, string> = { photo: 'a photo', reading: 'a reading', document: 'a document' };

/** The catalogue's evidence rule in words: 'Needs a photo or a reading before it can be posted.' */
export function evidenceWords(kinds: readonly EvidenceKind[]): string {
  return `Needs ${kinds.map((k) => KIND_WORDS[k]).join(' or ')} before it can be posted.`;
}

/** What the quantity of a fee counts, where staff type one; null where the catalogue fixes it at one. */
export function quantityLabel(fee: FeeType): string | null {
  if (fee.price.kind === 'banded') return fee.price.of === 'miles' ? 'Miles (the reading)' : 'Battery % (the reading)';
  if (fee.price.kind !== 'fixed') return null;
  if (fee.unit === 'MILEAGE') return 'Miles';
  if (fee.unit === 'DAY') return 'Days';
  return null;
}

/** Whether staff type the amount: an at-cost bill or an assessed amount. */
export const typesAmount = (fee: FeeType): boolean => fee.price.kind === 'atCost' || fee.price.kind === 'assessed';

/** Dollars as typed (a number input's value) to whole cents; undefined when empty. */
export function centsOf(dollars: number | string): number | undefined {
  if (dollars === '' || dollars === undefined) return undefined;
  const value = typeof dollars === 'number' ? dollars : Number(dollars);
  return Number.isFinite(value) ? Math.round(value * 100) : undefined;
}
