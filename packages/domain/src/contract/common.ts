import { z } from 'zod';
import { isLocalDate, isLocalTime } from '../time.ts';

export const ErrorBody = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const LocalDateParam = z.string().refine(isLocalDate, 'must be a date written YYYY-MM-DD');
export const LocalTimeParam = z.string().refine(isLocalTime, 'must be a time written HH:mm (00:00 to 23:59)');
export const IdParam = z.coerce.number({ error: 'must be a number' }).int('must be a whole number').positive('must be positive');
export const Cents = z.number().int();
