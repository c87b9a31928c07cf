/** 17-character VINs with a correct check digit (position 9), as North American VINs carry. */
import { vinCheckDigit } from '@ampere/domain/fleet';

export { vinCheckDigit };

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
