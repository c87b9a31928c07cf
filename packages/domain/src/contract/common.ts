import { z } from './zod.ts';
import { isLocalDate, isLocalTime } from '../time.ts';

export const ErrorBody = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

// ---- what every request's input must satisfy (decision 017) ----

/** The largest value an `integer` (int4) column holds; ids are bounded by it. */
export const INT4_MAX = 2_147_483_647;
/** The earliest and latest years a date or instant in a request may have. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 9999;
/** How deeply objects and arrays may nest in a request body (the deepest real body nests 4 levels). */
export const MAX_INPUT_DEPTH = 32;

/** A NUL, or a UTF-16 surrogate without its partner: neither can be stored as UTF-8 text. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasUnstorableCharacters(value: string): boolean {
  return value.includes('\u0000') || UNPAIRED_SURROGATE.test(value);
}

export const UNSTORABLE_MESSAGE = 'must not contain NUL characters or unpaired surrogates';
export const TOO_DEEP_MESSAGE = `nests too deeply (at most ${MAX_INPUT_DEPTH} levels)`;

export interface InputProblem {
  /** Where the problem is: object keys and array indexes joined by dots; '' for the value itself. */
  path: string;
  message: string;
}

/**
 * The first thing in a parsed request value (query, path parameters or JSON body) that no field
 * may hold, whatever its schema: a string or an object key with a NUL or an unpaired surrogate,
 * or nesting deeper than MAX_INPUT_DEPTH. Walks without recursion, so no input can exhaust the stack.
 */
export function findInputProblem(value: unknown): InputProblem | null {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (hasUnstorableCharacters(v)) return { path: path.join('.'), message: UNSTORABLE_MESSAGE };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (path.length >= MAX_INPUT_DEPTH) return { path: path.join('.'), message: TOO_DEEP_MESSAGE };
    if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ value: item, path: [...path, String(i)] }));
      continue;
    }
    // Bytes (a raw webhook body) are checked by their own route; any other object (a parsed query
    // string may have its own prototype) is walked by its own keys.
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) continue;
    for (const [key, item] of Object.entries(v)) {
      if (hasUnstorableCharacters(key))
        return { path: path.join('.'), message: `has a field name that ${UNSTORABLE_MESSAGE}` };
      stack.push({ value: item, path: [...path, key] });
    }
  }
  return null;
}

const yearIn = (year: number) => year >= MIN_YEAR && year <= MAX_YEAR;

export const LocalDateParam = z
  .string()
  .refine(isLocalDate, 'must be a date written YYYY-MM-DD')
  .refine((v) => yearIn(Number(v.slice(0, 4))), `must be a date between the years ${MIN_YEAR} and ${MAX_YEAR}`);
export const LocalTimeParam = z.string().refine(isLocalTime, 'must be a time written HH:mm (00:00 to 23:59)');
/** A database id (an int4 column): a whole number from 1 to INT4_MAX. */
export const IdParam = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .positive('must be positive')
  .max(INT4_MAX, `must be at most ${INT4_MAX}`);
export const Cents = z.number().int();

/** An ISO 8601 instant with an offset, in the years MIN_YEAR to MAX_YEAR (what a timestamptz column takes and a person means). */
export const IsoInstant = (error: string) =>
  z.iso.datetime({ offset: true, error }).refine((v) => {
    const t = Date.parse(v);
    return Number.isFinite(t) && yearIn(new Date(t).getUTCFullYear()) && yearIn(Number(v.slice(0, 4)));
  }, `must be between the years ${MIN_YEAR} and ${MAX_YEAR}`);
