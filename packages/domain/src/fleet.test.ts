import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CarRowContext,
  MAX_DAILY_RATE_CENTS,
  carStatus,
  checkCarRow,
  parseColor,
  vinCheckDigit,
  vinProblem,
} from './fleet.ts';

const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789'.split('');
const vinBody = fc.array(fc.constantFrom(...VIN_CHARS), { minLength: 17, maxLength: 17 }).map((cs) => cs.join(''));
/** A VIN with its check digit put right. */
const validVin = vinBody.map((draft) => `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`);

const ctx: CarRowContext = {
  models: new Map([
    ['model 3', 1],
    ['model y', 2],
  ]),
  locations: new Map([
    ['nashville downtown lot', 7],
    ['7', 7],
  ]),
  currentYear: 2026,
};
const good = {
  vin: '1M8GDM9AXKP042788',
  year: '2024',
  model: 'Model 3',
  colour: 'white',
  location: 'Nashville Downtown Lot',
  daily_rate_cents: '8900',
  odometer: '1200',
};

describe('VIN check digit (ISO 3779, North American rule: position 9)', () => {
  it('computes the published examples', () => {
    expect(vinCheckDigit('1M8GDM9AXKP042788')).toBe('X');
    expect(vinCheckDigit('11111111111111111')).toBe('1');
    expect(vinProblem('1M8GDM9AXKP042788')).toBeNull();
  });

  it('accepts every VIN whose 9th character is its check digit, in any case and with spaces around', () => {
    fc.assert(
      fc.property(validVin, (vin) => {
        expect(vinProblem(vin)).toBeNull();
        expect(vinProblem(` ${vin.toLowerCase()} `)).toBeNull();
      }),
    );
  });

  it('refuses any VIN whose 9th character is not its check digit, saying which digit it should be', () => {
    fc.assert(
      fc.property(validVin, fc.constantFrom(...'0123456789X'.split('')), (vin, digit) => {
        fc.pre(digit !== vin[8]);
        const wrong = `${vin.slice(0, 8)}${digit}${vin.slice(9)}`;
        expect(vinProblem(wrong)).toContain(`should be ${vin[8]}`);
      }),
    );
  });

  it('catches a single mistyped character in most VINs (a changed character changes the sum mod 11)', () => {
    fc.assert(
      fc.property(
        validVin,
        fc.integer({ min: 0, max: 16 }),
        fc.constantFrom(...'0123456789'.split('')),
        (vin, at, ch) => {
          // Digits differ in value by 1–9, and every weight but position 9's is 2–10: never a multiple of 11.
          fc.pre(at !== 8 && ch !== vin[at] && /\d/.test(vin[at]!));
          const typo = `${vin.slice(0, at)}${ch}${vin.slice(at + 1)}`;
          expect(vinProblem(typo)).not.toBeNull();
        },
      ),
    );
  });

  it('refuses a VIN of the wrong length, with I, O or Q, or with other characters', () => {
    expect(vinProblem('')).toBe('The VIN is missing.');
    expect(vinProblem('1M8GDM9AXKP04278')).toBe('A VIN has 17 characters; "1M8GDM9AXKP04278" has 16.');
    expect(vinProblem('1M8GDM9AXKP04278O')).toContain('never contains I, O or Q');
    expect(vinProblem('1M8GDM9AXKP04278-')).toContain('only letters and digits');
  });
});

describe('a car’s row (the console’s form and every CSV row)', () => {
  it('takes a good row, normalising the VIN and the colour', () => {
    expect(checkCarRow({ ...good, vin: '1m8gdm9axkp042788', colour: 'Gray' }, ctx)).toEqual({
      ok: true,
      car: {
        vin: '1M8GDM9AXKP042788',
        year: 2024,
        modelId: 1,
        color: 'GREY',
        locationId: 7,
        rackRateCents: 8900,
        odometer: 1200,
        licensePlate: null,
      },
    });
    expect(checkCarRow({ ...good, location: '7', odometer: '' }, ctx)).toMatchObject({
      ok: true,
      car: { locationId: 7, odometer: 0 },
    });
    // A plate is kept normalised; a bad one names its column.
    expect(checkCarRow({ ...good, license_plate: ' 8abc-123 ' }, ctx)).toMatchObject({
      ok: true,
      car: { licensePlate: '8ABC123' },
    });
    expect(checkCarRow({ ...good, license_plate: '!' }, ctx)).toMatchObject({
      ok: false,
      problems: [{ column: 'license_plate' }],
    });
  });

  it('names every bad column at once, each with what to do', () => {
    const result = checkCarRow(
      {
        vin: '1M8GDM9A1KP042788',
        year: '1999',
        model: 'Cybertruck',
        colour: 'green',
        location: 'Mars',
        daily_rate_cents: '89.00',
      },
      ctx,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.column)).toEqual([
      'vin',
      'year',
      'model',
      'colour',
      'location',
      'daily_rate_cents',
    ]);
    expect(result.problems.find((p) => p.column === 'daily_rate_cents')!.message).toBe(
      'The daily rate is in whole cents (e.g. 8900 for $89.00); got "89.00".',
    );
    expect(result.problems.find((p) => p.column === 'year')!.message).toContain('from 2012 to 2027');
  });

  it('says which values are missing', () => {
    const result = checkCarRow({}, ctx);
    expect(result.ok ? [] : result.problems.map((p) => p.message)).toEqual([
      'The vin is missing.',
      'The year is missing.',
      'The model is missing.',
      'The colour is missing.',
      'The location is missing.',
      'The daily rate cents is missing.',
    ]);
  });

  it('takes a daily rate only as whole cents above zero and at most the cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000, max: MAX_DAILY_RATE_CENTS * 2 }), (cents) => {
        const result = checkCarRow({ ...good, daily_rate_cents: String(cents) }, ctx);
        expect(result.ok).toBe(cents > 0 && cents <= MAX_DAILY_RATE_CENTS);
      }),
    );
  });

  it('reads colours case-blind, and gray as grey', () => {
    expect(parseColor(' blue ')).toBe('BLUE');
    expect(parseColor('gray')).toBe('GREY');
    expect(parseColor('green')).toBeNull();
  });
});

describe('a car’s status', () => {
  it('is retired first, then on rent, then in service, else available', () => {
    expect(carStatus({ retired: true, onRent: true, heldNow: true })).toBe('retired');
    expect(carStatus({ retired: false, onRent: true, heldNow: true })).toBe('on rent');
    expect(carStatus({ retired: false, onRent: false, heldNow: true })).toBe('in service');
    expect(carStatus({ retired: false, onRent: false, heldNow: false })).toBe('available');
  });
});
