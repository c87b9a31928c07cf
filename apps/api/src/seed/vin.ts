/** 17-character VINs with a correct check digit (position 9), as North American VINs carry. */

const VALUES: Record<string, number> = {
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
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
const YEAR_CODES: Record<number, string> = {
  2020: 'L',
  2021: 'M',
  2022: 'N',
  2023: 'P',
  2024: 'R',
  2025: 'S',
  2026: 'T',
  2027: 'V',
};

export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const ch = vin[i]!;
    const value = /\d/.test(ch) ? Number(ch) : VALUES[ch];
    if (value === undefined) throw new RangeError(`Character not allowed in a VIN: ${ch}`);
    sum += value * WEIGHTS[i]!;
  }
  const r = sum % 11;
  return r === 10 ? 'X' : String(r);
}

export function makeVin(wmi: string, vdsPrefix: string, year: number, plant: string, serial: number): string {
  const yearCode = YEAR_CODES[year];
  if (!yearCode) throw new RangeError(`No VIN year code for ${year}`);
  const draft = `${wmi}${vdsPrefix}A0${yearCode}${plant}${String(serial).padStart(6, '0')}`;
  return `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
}

/** Small deterministic generator so the demo fleet is the same on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A dash-separated public id such as 'AMP-7K3Q-9XW2'. */
export function platformId(prefix: string, random: () => number): string {
  const alphabet = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
  const chunk = () => Array.from({ length: 4 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  return `${prefix}-${chunk()}-${chunk()}`;
}
