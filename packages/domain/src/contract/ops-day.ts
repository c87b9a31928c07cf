import { z } from './zod.ts';
import { IMAGE_VIEWS, RESERVATION_STATUSES } from '../constants.ts';

/**
 * The console's calls for a car's photos, the today board and the lookup (issue 29 sections 3 and
 * 4, decisions 085 and 086). All under OPS_API.
 */

/** A car in a console path: its VIN, or its id in the fleet. */
export const CarIdParam = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{1,17}$/, 'must be a VIN or a car id')
  .transform((s) => s.toUpperCase());

/**
 * POST /cars/:carId/photos/:view takes the image itself as the body with its own content type
 * (image/jpeg, image/png, image/webp, image/avif), as `fetch(url, { method: 'POST', body: file })`
 * sends a File; DELETE removes it.
 */
export const PhotoParams = z
  .object({
    carId: CarIdParam,
    view: z
      .string()
      .transform((s) => s.toUpperCase())
      .pipe(z.enum(IMAGE_VIEWS, { error: `must be one of ${IMAGE_VIEWS.join(', ')}` })),
  })
  .strict();

/** A car's own photo of one view, as uploaded and resized. */
export const CarPhoto = z.object({
  vin: z.string(),
  view: z.enum(IMAGE_VIEWS),
  version: z.string(),
  /** What renter pages show (the middle width), versioned: a new upload gets a new address. */
  imageUrl: z.string(),
  /** Every width kept, for an `<img srcset>`. */
  srcset: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
  uploadedAt: z.string(),
});
export type CarPhoto = z.infer<typeof CarPhoto>;

export const CarPhotos = z.object({ vin: z.string(), photos: z.array(CarPhoto) });
export const PhotoRemoved = z.object({ vin: z.string(), view: z.enum(IMAGE_VIEWS), removed: z.literal(true) });

/** A location in a console query: its id. */
export const LocationIdValue = z
  .string()
  .trim()
  .regex(/^\d{1,9}$/, 'must be a location id')
  .transform((s) => String(Number(s)));

export const TodayQuery = z.object({ locationId: LocationIdValue }).strict();

const RenterSummary = z.object({ id: z.string(), name: z.string(), phone: z.string(), email: z.string().nullable() });
const CarSummary = z.object({ vin: z.string(), model: z.string(), color: z.string(), year: z.number().int() });

/** A trip as the board and the lookup list it. */
export const DayTrip = z.object({
  tripId: z.string(),
  reference: z.string(),
  status: z.enum(RESERVATION_STATUSES),
  pickupAt: z.string(),
  returnAt: z.string(),
  /** The pickup and return on the location's clock, e.g. '2026-11-27 09:00'. */
  pickupLocal: z.string(),
  returnLocal: z.string(),
  renter: RenterSummary.nullable(),
  car: CarSummary,
  /** What needs doing before the pickup: not paid yet, renter not verified. */
  problems: z.array(z.enum(['unpaid', 'unverified'])),
});
export type DayTrip = z.infer<typeof DayTrip>;

export const LowBatteryCar = z.object({
  car: CarSummary,
  batteryPercent: z.number(),
  nextPickupAt: z.string(),
  nextPickupLocal: z.string(),
  tripId: z.string(),
  reference: z.string(),
});

export const TodayBoard = z.object({
  location: z.object({ id: z.string(), name: z.string(), timezone: z.string() }),
  /** The location's dates today and tomorrow, and the instant the board was read. */
  today: z.string(),
  tomorrow: z.string(),
  now: z.string(),
  rules: z.object({
    lowBatteryPercent: z.number(),
    overdueGraceMinutes: z.number(),
    pickupSoonHours: z.number(),
  }),
  pickupsToday: z.array(DayTrip),
  pickupsTomorrow: z.array(DayTrip),
  returnsToday: z.array(DayTrip),
  overdue: z.array(DayTrip),
  lowBattery: z.array(LowBatteryCar),
  /** Trips picking up within the soon window that are unpaid or whose renter is not verified. */
  needsAttention: z.array(DayTrip),
});
export type TodayBoard = z.infer<typeof TodayBoard>;

export const LookupQuery = z
  .object({
    q: z.string().trim().min(2, 'must be at least 2 characters').max(100, 'must be at most 100 characters'),
  })
  .strict();

export const LookupResult = z.object({
  q: z.string(),
  /** Which keys the text was tried as (trip, phone, email, vin, name). */
  triedAs: z.array(z.string()),
  items: z.array(
    DayTrip.extend({
      location: z.object({ id: z.string(), name: z.string(), timezone: z.string() }),
      matchedBy: z.string(),
    }),
  ),
});
export type LookupResult = z.infer<typeof LookupResult>;

export const TripIdParam = z
  .object({
    tripId: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a trip id or reference'),
  })
  .strict();

export const TIMELINE_KINDS = [
  'booking',
  'payment',
  'verification',
  'key',
  'change',
  'ride',
  'fee',
  'message',
  'staff',
  'support',
  'inspection',
] as const;

export const TimelineEvent = z.object({
  at: z.string(),
  kind: z.enum(TIMELINE_KINDS),
  title: z.string(),
  detail: z.string().nullable(),
});
export type TimelineEvent = z.infer<typeof TimelineEvent>;

export const TripTimeline = z.object({
  trip: DayTrip.extend({
    location: z.object({ id: z.string(), name: z.string(), timezone: z.string() }),
    /** The renter's own page of the trip. */
    renterViewUrl: z.string(),
  }),
  events: z.array(TimelineEvent),
});
export type TripTimeline = z.infer<typeof TripTimeline>;

/** Where the console signs its subscription to a location's board channel (pusher-js posts a form or JSON). */
export const OPS_REALTIME_AUTH = '/realtime/auth';

export const StaffChannelAuthBody = z.object({
  socket_id: z.string().regex(/^\d{1,20}\.\d{1,20}$/, 'must be the socket id the realtime connection was given'),
  channel_name: z
    .string()
    .regex(/^private-ops-location-\d{1,9}$/, 'must be a location board channel like private-ops-location-12'),
});
export const StaffChannelAuth = z.object({ auth: z.string() });
