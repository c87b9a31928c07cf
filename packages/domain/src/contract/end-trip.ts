import { z } from './zod.ts';
import { FEE_DESCRIPTIONS, type FeeKind } from '../end-trip.ts';
import { Cents } from './common.ts';

const FEE_KINDS = Object.keys(FEE_DESCRIPTIONS) as [FeeKind, ...FeeKind[]];

/**
 * GET /api/v1/reservations/{id}/end/preview (decision 054): what ending the trip now would charge,
 * read from the car now and priced by the same rules End Trip uses. Changes nothing.
 */
export const EndTripPreview = z.object({
  /** The server's now (ISO), against which lateness is judged. */
  as_of: z.string(),
  /** The booked return (ISO) and the zone it is shown in. */
  return_at: z.string(),
  timezone: z.string(),
  /** Whole minutes past the booked return (0 when on time or early), and the grace before it is late. */
  minutes_late: z.number().int(),
  grace_minutes: z.number().int(),
  /** What the car reports now; null when it could not be read (then `car_message` says so). */
  car: z
    .object({
      /** Fraction 0–1, and the least it may come back with on this trip without a Recharge Fee. */
      battery_level: z.number(),
      charging_minimum: z.number(),
      /** True when that least is the car's charge at pickup, below the charging minimum (decision 103). */
      low_at_pickup: z.boolean(),
      /** Miles since pickup; null when the car was not read as it went out. */
      miles_driven: z.number().int().nullable(),
      /** Miles the booked days include; null with Unlimited Miles. */
      included_miles: z.number().int().nullable(),
    })
    .nullable(),
  car_message: z.string().nullable(),
  fees: z.array(
    z.object({
      kind: z.enum(FEE_KINDS),
      description: z.string(),
      amount: Cents,
      /** The part the deposit hold would cover, the part left to pay by card, and the part waived (decision 056). */
      from_deposit: Cents,
      due: Cents,
      waived: Cents,
    }),
  ),
  total: Cents,
  /** The live deposit hold: held, what would be kept for the fees, what would be released. Null without one. */
  deposit: z.object({ held: Cents, kept: Cents, released: Cents }).nullable(),
  /** What would be left to pay by card. */
  due: Cents,
  /** What would be waived: a remainder below the provider's minimum card charge (decision 056). */
  waived: Cents,
});
export type EndTripPreview = z.infer<typeof EndTripPreview>;
