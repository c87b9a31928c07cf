import { z } from './zod.ts';
import { DAMAGE_NOTE_MAX, DAMAGE_SEVERITIES, INSPECTION_STAGES, INSPECTION_VIEWS } from '../inspections.ts';

/**
 * The inspections' calls (issue 30 §1, decisions 089 and 090): the console's under OPS_API, and the
 * renter's under /api/v1. A photo is sent as the body itself with its image type, as the car
 * photos are (decision 085).
 */

const TripId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a trip id or reference');
const Stage = z.enum(INSPECTION_STAGES, { error: `must be one of ${INSPECTION_STAGES.join(', ')}` });
const View = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(INSPECTION_VIEWS, { error: `must be one of ${INSPECTION_VIEWS.join(', ')}` }));
const Uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be an id');

export const InspectionTripParams = z.object({ tripId: TripId }).strict();
export const InspectionParams = z.object({ tripId: TripId, stage: Stage }).strict();
export const InspectionViewParams = z.object({ tripId: TripId, stage: Stage, view: View }).strict();
export const DamageParams = z.object({ tripId: TripId, stage: Stage, damageId: Uuid }).strict();

/** A new damage mark: where on the drawing, which view it is seen in, how bad, and what it is. */
export const DamageBody = z
  .object({
    x: z.number().min(0, 'must be on the drawing (0 to 1)').max(1, 'must be on the drawing (0 to 1)'),
    y: z.number().min(0, 'must be on the drawing (0 to 1)').max(1, 'must be on the drawing (0 to 1)'),
    view: View,
    severity: z.enum(DAMAGE_SEVERITIES, { error: `must be one of ${DAMAGE_SEVERITIES.join(', ')}` }),
    note: z
      .string()
      .trim()
      .min(1, 'must say what the damage is')
      .max(DAMAGE_NOTE_MAX, `must be at most ${DAMAGE_NOTE_MAX} characters`),
  })
  .strict();
export type DamageBody = z.infer<typeof DamageBody>;

/** The car's telematics reading when a photo was taken; null when the car did not answer. */
const Reading = z.object({ batteryLevel: z.number().nullable(), odometerMiles: z.number().nullable() });

export const InspectionPhoto = z.object({
  id: z.string(),
  view: z.enum(INSPECTION_VIEWS).nullable(),
  damageId: z.string().nullable(),
  takenBy: z.enum(['staff', 'renter']),
  /** Who took it, in words: the staff member's name, or the renter's. */
  takenByName: z.string().nullable(),
  takenAt: z.string(),
  reading: Reading,
  /** The middle width, for pages; the srcset has all three. */
  url: z.string(),
  thumbUrl: z.string(),
  srcset: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type InspectionPhoto = z.infer<typeof InspectionPhoto>;

export const DamageMark = z.object({
  id: z.string(),
  x: z.number(),
  y: z.number(),
  view: z.enum(INSPECTION_VIEWS),
  severity: z.enum(DAMAGE_SEVERITIES),
  note: z.string(),
  createdAt: z.string(),
  closeups: z.array(InspectionPhoto),
});
export type DamageMark = z.infer<typeof DamageMark>;

export const Inspection = z.object({
  id: z.string(),
  stage: z.enum(INSPECTION_STAGES),
  startedAt: z.string(),
  startedBy: z.string().nullable(),
  completedAt: z.string().nullable(),
  completedBy: z.string().nullable(),
  /** The guided views' photos (staff's), in walking order. */
  views: z.array(InspectionPhoto),
  missingViews: z.array(z.enum(INSPECTION_VIEWS)),
  damage: z.array(DamageMark),
  /** The renter's own photos, merged into the record. */
  renterPhotos: z.array(InspectionPhoto),
});
export type Inspection = z.infer<typeof Inspection>;

const InspectionTrip = z.object({
  tripId: z.string(),
  reference: z.string(),
  status: z.string(),
  pickupAt: z.string(),
  returnAt: z.string(),
  timezone: z.string(),
  car: z.object({ vin: z.string(), model: z.string(), year: z.number().int(), color: z.string() }),
});

/** GET/POST /trips/:tripId/inspections/:stage: the trip and its inspection at that stage (null before it starts). */
export const InspectionResult = z.object({
  trip: InspectionTrip,
  stage: z.enum(INSPECTION_STAGES),
  inspection: Inspection.nullable(),
});
export type InspectionResult = z.infer<typeof InspectionResult>;

/** GET /trips/:tripId/inspections/compare: check-out beside check-in, view by view. */
export const InspectionCompare = z.object({
  trip: InspectionTrip,
  checkOut: Inspection.nullable(),
  checkIn: Inspection.nullable(),
  views: z.array(
    z.object({
      view: z.enum(INSPECTION_VIEWS),
      checkOut: InspectionPhoto.nullable(),
      checkIn: InspectionPhoto.nullable(),
    }),
  ),
});
export type InspectionCompare = z.infer<typeof InspectionCompare>;

export const DamageRemoved = z.object({ id: z.string(), removed: z.literal(true) });

/** The renter's view of their trip's inspections: the window to add photos, and what is in the record. */
export const RenterInspections = z.object({
  /** The stage the renter may add photos to now, and until when; null when no window is open. */
  open: z.object({ stage: z.enum(INSPECTION_STAGES), closesAt: z.string() }).nullable(),
  /** The next window to open, when none is open. */
  next: z.object({ stage: z.enum(INSPECTION_STAGES), opensAt: z.string() }).nullable(),
  timezone: z.string(),
  photosLeft: z.number().int(),
  stages: z.array(
    z.object({
      stage: z.enum(INSPECTION_STAGES),
      photos: z.array(InspectionPhoto),
      damage: z.array(DamageMark.omit({ closeups: true })),
    }),
  ),
});
export type RenterInspections = z.infer<typeof RenterInspections>;
