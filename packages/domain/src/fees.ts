import { INCLUDED_MILES_PER_DAY } from './constants.ts';
import {
  CHARGING_MINIMUM,
  CHARGING_MINIMUM_PREPAID,
  FEE_DESCRIPTIONS,
  LATE_FEE_CENTS,
  LATE_RETURN_GRACE_MINUTES,
  MILEAGE_OVERAGE_CENTS_PER_MILE,
  RECHARGE_BANDS,
} from './end-trip.ts';
import { formatTotal } from './money.ts';

/**
 * The published fee catalogue (spec 3 'Fee types declared' and its declared enumerations): every
 * charge the company can make after, or because of, a trip, what it costs, and what must back it.
 * The operator console prices a charge from here, the renter's policies and receipts name it from
 * here, and a charge without its evidence cannot be posted (decision 067). The amounts are ours; the
 * spec names the types. Add-ons, the underage fee, cancellation and one-way trips are priced with
 * the booking (pricing.ts, cancellation.ts), not here.
 */

/** Spec 3 'fee units'. */
export const FEE_UNITS = ['OCCURRENCE', 'MILEAGE', 'DAY', 'ONE_TIME'] as const;
export type FeeUnit = (typeof FEE_UNITS)[number];

/** Spec 3 'charge kinds': how a charge is booked (a transaction's category follows from it). */
export const CHARGE_KINDS = ['INCIDENTAL', 'VIOLATION', 'REIMBURSEMENT', 'ADDON'] as const;
export type ChargeKind = (typeof CHARGE_KINDS)[number];

/** Spec 3 'charge frequency'. */
export const CHARGE_FREQUENCIES = ['ONE_TIME', 'DAY', 'WEEK', 'MONTH'] as const;
export type ChargeFrequency = (typeof CHARGE_FREQUENCIES)[number];

/** Spec 3 'cost kinds': what a third party billed us that a charge passes on. */
export const COST_KINDS = [
  'ROADSIDE',
  'REPOSSESSION',
  'RECOVERY',
  'FLAT_TIRE_REPAIR',
  'FLAT_TIRE_REPLACEMENT',
  'TOLLS',
  'TICKET',
  'CHARGING',
  'ABANDONMENT',
  'IMPOUND',
  'MISCELLANEOUS',
] as const;
export type CostKind = (typeof COST_KINDS)[number];

/** Spec 3's other declared enumerations, for the console's records. */
export const TASK_KINDS = [
  'PAYMENT',
  'INSURANCE',
  'LICENSE',
  'REPO_WARNING',
  'DAMAGE_WAIVER',
  'EXTENSION',
  'SEND_KEY',
  'REVOKE_KEY',
  'RECEIPT',
  'VERIFF_PORTAL_LINK',
  'ADD_CARD_TO_PROFILE',
] as const;
export const DISCOUNT_KINDS = ['EMPLOYEE', 'WELCOME', 'REFERRAL', 'MARKETING', 'EVENT', 'BODYSHOP_FF'] as const;
export const PAYMENT_HOLD_ACTIONS = ['REAUTHORIZE', 'RELEASE', 'CREATE_NEW'] as const;

/** What backs a charge: a photo (inspection or close-up), a telematics reading, or a document (a ticket, an invoice). */
export const EVIDENCE_KINDS = ['photo', 'reading', 'document'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/**
 * How a fee is priced:
 * - `fixed`: `cents` per unit (per occurrence, per mile, per day);
 * - `atCost`: what the third party billed, passed through unchanged (tolls, tickets, impound lots);
 * - `assessed`: an amount a person sets from the evidence (damage, miscellaneous), up to `maxCents`;
 * - `banded`: by a reading (the battery left, the miles to recover the car).
 */
export type FeePrice =
  | { kind: 'fixed'; cents: number }
  | { kind: 'atCost' }
  | { kind: 'assessed'; maxCents: number }
  | { kind: 'banded'; bands: readonly { from: number; to: number; cents: number }[]; of: 'battery %' | 'miles' };

export interface FeeType {
  /** The label a renter reads on a charge, a receipt and the policies page. */
  label: string;
  /** One sentence: when it applies. */
  when: string;
  unit: FeeUnit;
  charge: ChargeKind;
  price: FeePrice;
  /** What a charge of this type must link to before it can be posted (any one of them). */
  evidence: readonly EvidenceKind[];
  /** The fee that comes with it on the same charge, e.g. a ticket's administration fee. */
  administration?: FeeTypeId;
  /** Charged by the trip's own rules at the return or at booking, never posted by hand. */
  automatic?: true;
}

const RECOVERY_BANDS = [
  { from: 0, to: 499, cents: 15_000 },
  { from: 500, to: 999, cents: 30_000 },
  { from: 1_000, to: 1_499, cents: 45_000 },
  { from: 1_500, to: 1_999, cents: 60_000 },
] as const;

export const FEE_TYPE_IDS = [
  'smoking',
  'cleaning',
  'biohazard',
  'recharge',
  'late',
  'lateRack',
  'mileageOverage',
  'missingAdapter',
  'missingKey',
  'toll',
  'ticket',
  'ticketAdministration',
  'impoundLot',
  'impound',
  'relocation',
  'relocationMileage',
  'roadside',
  'recovery',
  'repossession',
  'abandonment',
  'damage',
  'collection',
  'miscellaneous',
] as const;
export type FeeTypeId = (typeof FEE_TYPE_IDS)[number];

const FEES: Readonly<Record<FeeTypeId, FeeType>> = {
  smoking: {
    label: 'Smoking Fee',
    when: 'Smoke, ash or its smell in the car at the return.',
    unit: 'OCCURRENCE',
    charge: 'INCIDENTAL',
    price: { kind: 'fixed', cents: 25_000 },
    evidence: ['photo'],
  },
  cleaning: {
    label: 'Cleaning Fee',
    when: 'The car needs more than a normal clean: sand, mud, pet hair, spills or rubbish left inside.',
    unit: 'OCCURRENCE',
    charge: 'INCIDENTAL',
    price: { kind: 'fixed', cents: 7_500 },
    evidence: ['photo'],
  },
  biohazard: {
    label: 'Biohazard Cleaning Fee',
    when: 'Blood, vomit or other bodily fluids need a specialist clean.',
    unit: 'OCCURRENCE',
    charge: 'INCIDENTAL',
    price: { kind: 'fixed', cents: 25_000 },
    evidence: ['photo'],
  },
  recharge: {
    label: FEE_DESCRIPTIONS.recharge,
    when: `The battery came back below the charging minimum (${Math.round(CHARGING_MINIMUM * 100)} %, or ${Math.round(CHARGING_MINIMUM_PREPAID * 100)} % with Prepaid Charging), and below its charge at pickup.`,
    unit: 'OCCURRENCE',
    charge: 'INCIDENTAL',
    price: { kind: 'banded', bands: RECHARGE_BANDS, of: 'battery %' },
    evidence: ['reading'],
    automatic: true,
  },
  late: {
    label: FEE_DESCRIPTIONS.late,
    when: `The car came back more than ${LATE_RETURN_GRACE_MINUTES} minutes after the booked return.`,
    unit: 'ONE_TIME',
    charge: 'INCIDENTAL',
    price: { kind: 'fixed', cents: LATE_FEE_CENTS },
    evidence: ['reading'],
    automatic: true,
  },
  lateRack: {
    label: FEE_DESCRIPTIONS.lateRack,
    when: "Each further day the car is kept past the booked return, at the car's daily rate.",
    unit: 'DAY',
    charge: 'INCIDENTAL',
    price: { kind: 'atCost' },
    evidence: ['reading'],
    automatic: true,
  },
  mileageOverage: {
    label: FEE_DESCRIPTIONS.mileage,
    when: `Each mile over the ${INCLUDED_MILES_PER_DAY} a day included, unless Unlimited Miles was added.`,
    unit: 'MILEAGE',
    charge: 'INCIDENTAL',
    price: { kind: 'fixed', cents: MILEAGE_OVERAGE_CENTS_PER_MILE },
    evidence: ['reading'],
    automatic: true,
  },
  missingAdapter: {
    label: 'Missing Charging Adapter',
    when: 'The charging adapter that came with the car is not in it at the return.',
    unit: 'OCCURRENCE',
    charge: 'INCIDENTAL',
    price: { kind: 'fixed', cents: 25_000 },
    evidence: ['photo'],
  },
  missingKey: {
    label: 'Missing Physical Key',
    when: 'The key card or fob that came with the car is not returned.',
    unit: 'OCCURRENCE',
    charge: 'INCIDENTAL',
    price: { kind: 'fixed', cents: 15_000 },
    evidence: ['photo'],
  },
  toll: {
    label: 'Toll',
    when: 'A toll the car ran up during the trip, at what the toll authority billed.',
    unit: 'OCCURRENCE',
    charge: 'VIOLATION',
    price: { kind: 'atCost' },
    evidence: ['document'],
  },
  ticket: {
    label: 'Parking or Traffic Ticket',
    when: 'A ticket issued to the car during the trip, at its face value.',
    unit: 'OCCURRENCE',
    charge: 'VIOLATION',
    price: { kind: 'atCost' },
    evidence: ['document'],
    administration: 'ticketAdministration',
  },
  ticketAdministration: {
    label: 'Ticket Administration Fee',
    when: 'Handling a ticket: naming the driver to the issuer or paying it on your behalf. Tolls carry no such fee.',
    unit: 'OCCURRENCE',
    charge: 'INCIDENTAL',
    price: { kind: 'fixed', cents: 1_500 },
    evidence: ['document'],
  },
  impoundLot: {
    label: 'Impound Lot Charges',
    when: 'The car was towed or impounded during the trip: the tow and the lot, at what they billed.',
    unit: 'OCCURRENCE',
    charge: 'VIOLATION',
    price: { kind: 'atCost' },
    evidence: ['document'],
    administration: 'impound',
  },
  impound: {
    label: 'Impound Fee',
    when: 'Retrieving a towed or impounded car: staff time and the trip to the lot.',
    unit: 'OCCURRENCE',
    charge: 'INCIDENTAL',
    price: { kind: 'fixed', cents: 15_000 },
    evidence: ['document'],
  },
  relocation: {
    label: 'Relocation Fee',
    when: 'The car was left somewhere other than the return place booked.',
    unit: 'OCCURRENCE',
    charge: 'INCIDENTAL',
    price: { kind: 'fixed', cents: 15_000 },
    evidence: ['reading'],
  },
  relocationMileage: {
    label: 'Relocation Mileage',
    when: 'Each mile driven to bring a relocated car back to its return place.',
    unit: 'MILEAGE',
    charge: 'INCIDENTAL',
    price: { kind: 'fixed', cents: 150 },
    evidence: ['reading'],
  },
  roadside: {
    label: 'Roadside Assistance',
    when: 'A call-out caused by the renter: a flat battery, keys locked in, a flat tyre from driving off-road.',
    unit: 'OCCURRENCE',
    charge: 'REIMBURSEMENT',
    price: { kind: 'fixed', cents: 7_500 },
    evidence: ['document'],
  },
  recovery: {
    label: 'Recovery Fee',
    when: 'The car had to be fetched from where it was left, by the miles to reach it.',
    unit: 'OCCURRENCE',
    charge: 'REIMBURSEMENT',
    price: { kind: 'banded', bands: RECOVERY_BANDS, of: 'miles' },
    evidence: ['reading', 'document'],
  },
  repossession: {
    label: 'Repossession Fee',
    when: 'The car was taken back because it was kept past its return without an extension.',
    unit: 'OCCURRENCE',
    charge: 'REIMBURSEMENT',
    price: { kind: 'fixed', cents: 40_000 },
    evidence: ['reading', 'document'],
  },
  abandonment: {
    label: 'Abandonment Fee',
    when: 'The car was left unlocked, away from a return place, or with the trip not ended.',
    unit: 'OCCURRENCE',
    charge: 'INCIDENTAL',
    price: { kind: 'fixed', cents: 50_000 },
    evidence: ['photo', 'reading'],
  },
  damage: {
    label: 'Damage',
    when: 'Damage found at the return that was not on the pickup inspection, at the repair estimate.',
    unit: 'OCCURRENCE',
    charge: 'INCIDENTAL',
    price: { kind: 'assessed', maxCents: 250_000 },
    evidence: ['photo'],
  },
  collection: {
    label: 'Collection Fee',
    when: 'A charge left unpaid for 30 days was sent to collection.',
    unit: 'ONE_TIME',
    charge: 'INCIDENTAL',
    price: { kind: 'fixed', cents: 3_500 },
    evidence: ['document'],
  },
  miscellaneous: {
    label: 'Other Charge',
    when: 'Anything else, with a written reason and its evidence.',
    unit: 'OCCURRENCE',
    charge: 'INCIDENTAL',
    price: { kind: 'assessed', maxCents: 50_000 },
    evidence: ['photo', 'reading', 'document'],
  },
};

export const FEE_CATALOGUE = FEES;

/** The fees a person can post from the console (the automatic ones come with the return). */
export const POSTABLE_FEE_TYPE_IDS = FEE_TYPE_IDS.filter((id) => !FEES[id].automatic);

/** Spec 3 'dispute fees 1 to 5': the card network's fee for each chargeback a renter files and loses, passed on at cost. */
export const DISPUTE_FEE_LEVELS = [1, 2, 3, 4, 5] as const;
export const DISPUTE_FEE_CENTS = 1_500;

/** The most an at-cost charge can pass on in one posting: a bill larger than this is a typing mistake or a claim. */
export const AT_COST_LIMIT_CENTS = 100_000;

/** A charge a person is about to post, before it is priced. */
export interface ChargeRequest {
  type: FeeTypeId;
  /** Miles, days or occurrences for a fixed fee; the reading (battery %, miles) for a banded one; 1 otherwise. */
  quantity?: number;
  /** The billed amount for an at-cost fee, or the assessed amount, in cents. */
  cents?: number;
  evidence: readonly { kind: EvidenceKind }[];
}

export type ChargePricing =
  | { ok: true; amount: number; unitCents: number; quantity: number; label: string }
  | { ok: false; field: 'type' | 'quantity' | 'cents' | 'evidence'; message: string };

/**
 * Prices a charge by the catalogue and says what stops it: the amount is never typed freely for a
 * fixed or banded fee, an at-cost or assessed one needs its amount, and every charge needs evidence
 * of a kind its type accepts.
 */
export function priceCharge(request: ChargeRequest): ChargePricing {
  const fee: FeeType | undefined = (FEES as Partial<Record<string, FeeType>>)[request.type];
  if (!fee) return { ok: false, field: 'type', message: `There is no fee type '${request.type}' in the catalogue.` };
  if (fee.automatic)
    return { ok: false, field: 'type', message: `${fee.label} is charged by the return itself, not posted by hand.` };
  if (!request.evidence.some((e) => fee.evidence.includes(e.kind)))
    return {
      ok: false,
      field: 'evidence',
      message: `${fee.label} needs evidence first: ${fee.evidence.map((k) => (k === 'reading' ? 'a reading' : `a ${k}`)).join(' or ')}.`,
    };
  const quantity = request.quantity ?? 1;
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > 100_000)
    return { ok: false, field: 'quantity', message: 'The quantity must be a whole number from 1 to 100,000.' };
  const price = fee.price;
  switch (price.kind) {
    case 'fixed':
      return { ok: true, amount: price.cents * quantity, unitCents: price.cents, quantity, label: fee.label };
    case 'banded': {
      const band = price.bands.find((b) => quantity >= b.from && quantity <= b.to);
      if (!band)
        return {
          ok: false,
          field: 'quantity',
          message: `${fee.label} is priced for ${price.of} from ${price.bands[0]!.from} to ${price.bands.at(-1)!.to}.`,
        };
      return { ok: true, amount: band.cents, unitCents: band.cents, quantity: 1, label: fee.label };
    }
    case 'atCost':
    case 'assessed': {
      const cents = request.cents;
      if (cents === undefined || !Number.isInteger(cents) || cents < 1)
        return { ok: false, field: 'cents', message: `${fee.label} needs its amount in whole cents, more than 0.` };
      if (price.kind === 'atCost' && cents > AT_COST_LIMIT_CENTS)
        return {
          ok: false,
          field: 'cents',
          message: `${fee.label} over ${formatTotal(AT_COST_LIMIT_CENTS)} cannot be passed on from the console: check the bill.`,
        };
      if (price.kind === 'assessed' && cents > price.maxCents)
        return {
          ok: false,
          field: 'cents',
          message: `${fee.label} can be at most ${formatTotal(price.maxCents)} when posted from the console.`,
        };
      return { ok: true, amount: cents, unitCents: cents, quantity: 1, label: fee.label };
    }
  }
}
