import { z } from './zod.ts';
import { CAR_COMMANDS, KEY_PAUSERS, STAFF_KEY_VERBS, SUPPORT_NOTE_SOURCES } from '../car-actions.ts';
import { RESERVATION_STATUSES } from '../constants.ts';
import { TripIdParam } from './ops-day.ts';

/**
 * The console's key and car calls (issue 30 §5, decision 096), under OPS_API, for one trip named
 * by id or reference: read the key, the car and the trip's support notes; pause, resume, revoke or
 * replace the key; lock or unlock the car; close a note. A trip of a location the staff member
 * does not work at answers 404.
 */

export const KeyVerbParams = TripIdParam.extend({ verb: z.enum(STAFF_KEY_VERBS) }).strict();
export const CarCommandParams = TripIdParam.extend({ command: z.enum(CAR_COMMANDS) }).strict();
export const SupportNoteParams = TripIdParam.extend({ noteId: z.uuid('must be a support note id') }).strict();

/** What the car reports, read now: lock, odometer, battery and where it is. */
export const CarReading = z.object({
  locked: z.boolean(),
  odometerMiles: z.number(),
  /** 0–100. */
  batteryPercent: z.number(),
  latitude: z.number(),
  longitude: z.number(),
  /** How far the car is from the trip's pickup lot, in miles (one decimal). */
  milesFromLot: z.number(),
  readAt: z.string(),
});
export type CarReading = z.infer<typeof CarReading>;

export const SupportNote = z.object({
  id: z.string(),
  source: z.enum(SUPPORT_NOTE_SOURCES),
  title: z.string(),
  /** What went wrong, in the car's or its provider's words. */
  detail: z.string(),
  createdAt: z.string(),
  /** Who at the desk tried, for a note the console opened. */
  staffName: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
});
export type SupportNote = z.infer<typeof SupportNote>;

export const KeyAndCar = z.object({
  trip: z.object({
    tripId: z.string(),
    reference: z.string(),
    status: z.enum(RESERVATION_STATUSES),
    timezone: z.string(),
  }),
  /** The trip's live key (active or paused); null when it has none. The token is the renter's alone. */
  key: z
    .object({
      status: z.enum(['active', 'paused']),
      pausedBy: z.enum(KEY_PAUSERS).nullable(),
      validFrom: z.string(),
      validUntil: z.string(),
      issuedAt: z.string(),
    })
    .nullable(),
  /** The car's reading; null when it did not answer (carMessage says so). */
  car: CarReading.nullable(),
  carMessage: z.string().nullable(),
  /** Open notes first, newest first; closed ones after. */
  notes: z.array(SupportNote),
});
export type KeyAndCar = z.infer<typeof KeyAndCar>;
