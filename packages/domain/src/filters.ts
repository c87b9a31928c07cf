import { BASE_MODELS, COLORS, type Color, LONG_RANGE_SUFFIX } from './constants.ts';

/** Rule (spec 3): allowed colours are BLACK, BLUE, RED, GREY, WHITE; lowercase is accepted. */
export function parseColor(value: string | null | undefined): Color | null {
  if (!value) return null;
  const upper = value.trim().toUpperCase();
  return (COLORS as readonly string[]).includes(upper) ? (upper as Color) : null;
}

export function colorLabel(color: string): string {
  return color.charAt(0).toUpperCase() + color.slice(1).toLowerCase();
}

export function isLongRange(model: string | null | undefined): boolean {
  return !!model && model.endsWith(LONG_RANGE_SUFFIX.trim());
}

export const VARIANTS = ['long-range', 'standard'] as const;
export type Variant = (typeof VARIANTS)[number];

/**
 * Rule (spec 3, 7): the search's `variant` filter takes the words the filters show, the Long Range
 * chip's 'Long Range' (and 'Standard' for the other cars); case, spaces, hyphens and underscores
 * do not matter, so 'long-range' and 'LONG_RANGE' name the same variant. Null for anything else.
 */
export function parseVariant(value: string): Variant | null {
  const words = value
    .trim()
    .toLowerCase()
    .split(/[\s_-]+/)
    .join(' ');
  if (words === LONG_RANGE_SUFFIX.trim().toLowerCase()) return 'long-range';
  if (words === 'standard') return 'standard';
  return null;
}

export function baseModel(model: string): string {
  return isLongRange(model) ? model.slice(0, -LONG_RANGE_SUFFIX.length) : model;
}

/** Rule (spec 4): the Long Range chip is enabled only when the selected model is Model Y or Model 3. */
export function isLongRangeChipEnabled(model: string | null | undefined): boolean {
  if (!model) return false;
  const base = baseModel(model);
  return base === 'Model 3' || base === 'Model Y';
}

/**
 * Rule (spec 4): selecting the already-selected model clears it; choosing Model 3 or Model Y
 * while Long Range is active keeps the suffix.
 */
export function toggleModel(current: string | null | undefined, chosen: string): string | null {
  if (current && baseModel(current) === baseModel(chosen)) return null;
  if (isLongRange(current) && isLongRangeChipEnabled(chosen)) return `${baseModel(chosen)}${LONG_RANGE_SUFFIX}`;
  return chosen;
}

/** Rule (spec 4): selecting Long Range appends ' Long Range'; deselecting removes it. */
export function toggleLongRange(current: string | null | undefined): string | null {
  if (!current || !isLongRangeChipEnabled(current)) return current ?? null;
  return isLongRange(current) ? baseModel(current) : `${current}${LONG_RANGE_SUFFIX}`;
}

/** Rule (spec 4): selecting the already-selected colour clears it. */
export function toggleColor(current: string | null | undefined, chosen: string): Color | null {
  const next = parseColor(chosen);
  return next && parseColor(current) === next ? null : next;
}

/** Rule (spec 3): the search filter lists at most the four base models. */
export function modelChips(serverModels: readonly string[] | null | undefined): string[] {
  if (!serverModels || serverModels.length === 0) return [...BASE_MODELS];
  // Always in the menu's order, whatever order the server lists them in: the chips must not jump
  // about when the results (and their lists) arrive.
  const listed = new Set(serverModels.map(baseModel));
  return BASE_MODELS.filter((m) => listed.has(m)).slice(0, 4);
}

/** Rule (spec 3): colour chips default to Black, Grey, White, Red, Blue unless the server lists others. */
export function colorChips(serverColors: readonly string[] | null | undefined): Color[] {
  const parsed = (serverColors ?? []).map(parseColor).filter((c): c is Color => c !== null);
  return parsed.length > 0 ? COLORS.filter((c) => parsed.includes(c)) : [...COLORS];
}

/** A city as search's `city` parameter names it (spec 2): 'City, ST'. */
export const cityLabel = (city: string, state: string) => `${city.trim()}, ${state.trim()}`;

/**
 * Whether two city names are the same place as a renter would write it: case, commas, dots and
 * spacing aside ('St. Louis MO' is 'St Louis, MO').
 */
export function sameCity(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  return norm(a) === norm(b);
}
