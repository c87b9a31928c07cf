/**
 * The fleet's rules (issue 29, decision 084): what makes a car's row valid — its VIN with the
 * North American check digit, its year, model, colour, location and daily rate — checked the same
 * way for a car added in the console and for every row of a CSV import, and how a car's status is
 * told from its trips and holds.
 */
import { COLORS, type Color } from './constants.ts';

/** ISO 3779 transliteration: the value each letter counts for (I, O and Q are never used). */
const LETTER_VALUES: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
/** The weight of each of the 17 positions; position 9 (the check digit itself) weighs 0. */
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2] as const;
export const VIN_LENGTH = 17;
const VIN_SHAPE = /^[A-HJ-NPR-Z0-9]{17}$/;

/**
 * The check digit a VIN must carry at position 9 (North American rule, 49 CFR 565): the weighted
 * sum of the transliterated characters modulo 11, with 10 written as X.
 */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < VIN_LENGTH; i++) {
    const ch = vin[i];
    if (ch === undefined) throw new RangeError('A VIN has 17 characters.');
    const value = ch >= '0' && ch <= '9' ? Number(ch) : LETTER_VALUES[ch];
    if (value === undefined) throw new RangeError(`Character not allowed in a VIN: ${ch}`);
    sum += value * VIN_WEIGHTS[i]!;
  }
  const r = sum % 11;
  return r === 10 ? 'X' : String(r);
}

/** The VIN as stored: trimmed, upper case. */
export const normalizeVin = (vin: string): string => vin.trim().toUpperCase();

/** What is wrong with a VIN, in words a person can act on, or null when it is valid. */
export function vinProblem(raw: string): string | null {
  const vin = normalizeVin(raw);
  if (vin.length === 0) return 'The VIN is missing.';
  if (vin.length !== VIN_LENGTH) return `A VIN has 17 characters; "${vin}" has ${vin.length}.`;
  if (/[IOQ]/.test(vin)) return `A VIN never contains I, O or Q (they read like 1 and 0); check "${vin}".`;
  if (!VIN_SHAPE.test(vin)) return `A VIN holds only letters and digits; check "${vin}".`;
  const expected = vinCheckDigit(vin);
  if (vin[8] !== expected)
    return `The VIN's check digit (9th character) should be ${expected}, not ${vin[8]}: a character is probably mistyped.`;
  return null;
}

/** The oldest model year the fleet takes, and how far ahead of today's year a new model may be. */
export const MIN_MODEL_YEAR = 2012;
export const MODEL_YEARS_AHEAD = 1;
/** The highest daily rate a car may carry: $5,000.00 a day guards against a rate typed in dollars×100 twice. */
export const MAX_DAILY_RATE_CENTS = 500_000;

/** The CSV's columns, in order: what the export writes and the import reads. */
export const FLEET_CSV_COLUMNS = [
  'vin',
  'year',
  'model',
  'colour',
  'location',
  'daily_rate_cents',
  'odometer',
  'license_plate',
] as const;
export type FleetCsvColumn = (typeof FLEET_CSV_COLUMNS)[number];
/** The columns a row must fill; odometer may be left empty (0 miles). */
export const REQUIRED_FLEET_COLUMNS: readonly FleetCsvColumn[] = [
  'vin',
  'year',
  'model',
  'colour',
  'location',
  'daily_rate_cents',
];

/** A row's raw values, as typed in a form or read from a CSV line. */
export type CarRowInput = Partial<Record<FleetCsvColumn, string>>;

/** What the rows are checked against: the models and locations there are, and today's year. */
export interface CarRowContext {
  /** Model names by lower-cased name (and slug), to their id. */
  models: ReadonlyMap<string, number>;
  /** Locations by lower-cased name and by id, to their id. */
  locations: ReadonlyMap<string, number>;
  currentYear: number;
}

export interface CarRow {
  vin: string;
  year: number;
  modelId: number;
  color: Color;
  locationId: number;
  rackRateCents: number;
  odometer: number;
  /** Normalised (letters and digits, upper case); null when none is given. */
  licensePlate: string | null;
}

/** A plate as we keep and compare it: letters and digits only, upper case (tolls match on it). */
export function normalisePlate(plate: string): string {
  return plate.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
}

/** A normalised plate: 2 to 10 letters and digits. */
export const PLATE_PATTERN = /^[A-Z0-9]{2,10}$/;

/** What is wrong with a plate as typed, or null when it is good (empty is good: no plate). */
export function plateProblem(raw: string): string | null {
  const plate = normalisePlate(raw);
  if (raw.trim() === '' || PLATE_PATTERN.test(plate)) return null;
  return `The license plate must have 2 to 10 letters and digits; got "${raw}".`;
}

export interface RowProblem {
  column: FleetCsvColumn;
  message: string;
}

const WHOLE = /^\d+$/;

/** Reads a colour as written ("grey", "Gray", "WHITE") to the fleet's colour, or null. */
export function parseColor(raw: string): Color | null {
  const text = raw.trim().toUpperCase();
  const color = text === 'GRAY' ? 'GREY' : text;
  return (COLORS as readonly string[]).includes(color) ? (color as Color) : null;
}

/**
 * Checks one car's values: each problem names its column and says what to fix. Returns the car
 * when every value is good, else the problems (all of them, not just the first).
 */
export function checkCarRow(
  input: CarRowInput,
  ctx: CarRowContext,
): { ok: true; car: CarRow } | { ok: false; problems: RowProblem[] } {
  const problems: RowProblem[] = [];
  const value = (c: FleetCsvColumn) => (input[c] ?? '').trim();
  const missing = (c: FleetCsvColumn) => {
    if (value(c) !== '') return false;
    problems.push({ column: c, message: `The ${c.replace(/_/g, ' ')} is missing.` });
    return true;
  };

  const vin = normalizeVin(value('vin'));
  if (!missing('vin')) {
    const p = vinProblem(vin);
    if (p) problems.push({ column: 'vin', message: p });
  }

  let year = 0;
  const maxYear = ctx.currentYear + MODEL_YEARS_AHEAD;
  if (!missing('year')) {
    year = WHOLE.test(value('year')) ? Number(value('year')) : NaN;
    if (!Number.isInteger(year) || year < MIN_MODEL_YEAR || year > maxYear)
      problems.push({
        column: 'year',
        message: `The year must be a model year from ${MIN_MODEL_YEAR} to ${maxYear}; got "${value('year')}".`,
      });
  }

  let modelId: number | undefined;
  if (!missing('model')) {
    modelId = ctx.models.get(value('model').toLowerCase());
    if (modelId === undefined)
      problems.push({
        column: 'model',
        message: `We have no model called "${value('model')}"; use a model name as the fleet lists it (e.g. "Model 3").`,
      });
  }

  let color: Color | null = null;
  if (!missing('colour')) {
    color = parseColor(value('colour'));
    if (!color)
      problems.push({
        column: 'colour',
        message: `The colour must be one of ${COLORS.map((c) => c.toLowerCase()).join(', ')}; got "${value('colour')}".`,
      });
  }

  let locationId: number | undefined;
  if (!missing('location')) {
    locationId = ctx.locations.get(value('location').toLowerCase());
    if (locationId === undefined)
      problems.push({
        column: 'location',
        message: `We have no location "${value('location')}" that you work at; use its name or id as the Locations page shows it.`,
      });
  }

  let rate = 0;
  if (!missing('daily_rate_cents')) {
    const raw = value('daily_rate_cents');
    rate = WHOLE.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(rate) || rate <= 0 || rate > MAX_DAILY_RATE_CENTS)
      problems.push({
        column: 'daily_rate_cents',
        message: /[.,$]/.test(raw)
          ? `The daily rate is in whole cents (e.g. 8900 for $89.00); got "${raw}".`
          : `The daily rate must be whole cents from 1 to ${MAX_DAILY_RATE_CENTS}; got "${raw}".`,
      });
  }

  let odometer = 0;
  const rawOdometer = value('odometer');
  if (rawOdometer !== '') {
    odometer = WHOLE.test(rawOdometer) ? Number(rawOdometer) : NaN;
    if (!Number.isSafeInteger(odometer) || odometer > 2_000_000)
      problems.push({ column: 'odometer', message: `The odometer must be whole miles; got "${rawOdometer}".` });
  }

  const rawPlate = value('license_plate');
  const plateIssue = plateProblem(rawPlate);
  if (plateIssue) problems.push({ column: 'license_plate', message: plateIssue });
  const licensePlate = rawPlate === '' ? null : normalisePlate(rawPlate);

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    car: {
      vin,
      year,
      modelId: modelId!,
      color: color!,
      locationId: locationId!,
      rackRateCents: rate,
      odometer,
      licensePlate,
    },
  };
}

/** A car's status in the console: retired (a flag), on rent (a trip in progress), in service (a hold now), or available. */
export const CAR_STATUSES = ['available', 'on rent', 'in service', 'retired'] as const;
export type CarStatus = (typeof CAR_STATUSES)[number];

/** What a car's status is told from: each flag, in the order it wins; none of them: available. */
export const CAR_STATUS_FLAGS = [
  { flag: 'retired', status: 'retired' },
  { flag: 'onRent', status: 'on rent' },
  { flag: 'heldNow', status: 'in service' },
] as const satisfies readonly { flag: string; status: CarStatus }[];
export type CarStatusFlag = (typeof CAR_STATUS_FLAGS)[number]['flag'];

/** A car's status from its flags (the car list's SQL builds the same order from CAR_STATUS_FLAGS). */
export function carStatus(car: Record<CarStatusFlag, boolean>): CarStatus {
  return CAR_STATUS_FLAGS.find(({ flag }) => car[flag])?.status ?? 'available';
}

/** Why a car is held: service, cleaning, charging, or something else (the note says what). */
export const HOLD_REASONS = ['service', 'cleaning', 'charging', 'other'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** The longest one hold may last: a car out longer than this is better retired or its hold renewed. */
export const MAX_HOLD_DAYS = 90;
