import { z } from './zod.ts';
import { COLORS } from '../constants.ts';
import { CAR_STATUSES, FLEET_CSV_COLUMNS, HOLD_REASONS, MAX_DAILY_RATE_CENTS } from '../fleet.ts';
import { INT4_MAX } from './common.ts';

/**
 * The operator console's fleet calls (issue 29 §3, decisions 083 and 084): cars, their holds,
 * the CSV import and export, and locations. Every one under OPS_API; a car, hold or location of a
 * location the staff member does not work at answers 404.
 */

const Id = z.coerce.number().int().positive().max(INT4_MAX);
const Instant = z.iso.datetime({ offset: true });

export const CarParams = z.object({ carId: Id }).strict();
export const HoldParams = z.object({ holdId: z.uuid() }).strict();
export const LocationParams = z.object({ locationId: Id }).strict();

export const CarStatusSchema = z.enum(CAR_STATUSES);
export const CAR_SORTS = ['vin', 'model', 'location', 'status', 'battery', 'rate', 'year'] as const;

/** The car list's filters, sort and page (offset paging: a 50-car lot is a page or two). */
export const CarsQuery = z
  .object({
    locationId: Id.optional(),
    model: z.string().trim().min(1).max(80).optional(),
    status: CarStatusSchema.optional(),
    /** Battery in percent: cars reporting less than this. */
    batteryBelow: z.coerce.number().min(0).max(100).optional(),
    /** Battery in percent: cars reporting more than this. */
    batteryAbove: z.coerce.number().min(0).max(100).optional(),
    /** Part of a VIN. */
    vin: z.string().trim().min(1).max(17).optional(),
    sort: z.enum(CAR_SORTS).default('vin'),
    order: z.enum(['asc', 'desc']).default('asc'),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();
export type CarsQuery = z.infer<typeof CarsQuery>;

export const CarSummary = z.object({
  id: z.number(),
  vin: z.string(),
  year: z.number(),
  model: z.string(),
  modelId: z.number(),
  colour: z.enum(COLORS),
  locationId: z.string(),
  locationName: z.string(),
  timezone: z.string(),
  dailyRateCents: z.number(),
  odometer: z.number(),
  /** The connected car's last report, in percent; null before it ever reported. */
  batteryPercent: z.number().nullable(),
  status: CarStatusSchema,
  retiredAt: z.string().nullable(),
  selfServe: z.boolean(),
  /** Normalised plate (letters and digits, upper case); null when none is recorded. */
  licensePlate: z.string().nullable(),
});
export type CarSummary = z.infer<typeof CarSummary>;

export const CarsPage = z.object({
  cars: z.array(CarSummary),
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
});

export const HoldReasonSchema = z.enum(HOLD_REASONS);

export const Hold = z.object({
  id: z.string(),
  carId: z.number(),
  reason: HoldReasonSchema,
  note: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  canceledAt: z.string().nullable(),
  createdBy: z.string().nullable(),
});
export type Hold = z.infer<typeof Hold>;

/** One entry of a car's timeline: a booking (its trip reference as the renter sees it) or a hold. */
export const TimelineEntry = z.object({
  kind: z.enum(['booking', 'hold']),
  id: z.string(),
  /** The trip's reference (bookings) or the hold's reason. */
  label: z.string(),
  status: z.string(),
  from: z.string(),
  until: z.string(),
  note: z.string().nullable(),
});

export const Ride = z.object({
  tripReference: z.string(),
  pickupAt: z.string(),
  returnAt: z.string().nullable(),
  mileageOut: z.number().nullable(),
  mileageIn: z.number().nullable(),
  batteryOutPercent: z.number().nullable(),
  batteryInPercent: z.number().nullable(),
});

export const CarPage = z.object({
  car: CarSummary,
  timeline: z.array(TimelineEntry),
  rides: z.array(Ride),
  photos: z.array(z.object({ view: z.string(), url: z.string() })),
});

const Cents = z.number().int().positive().max(MAX_DAILY_RATE_CENTS);

/** Adding a car: the same values a CSV row carries, checked by the same rule (fleet.ts `checkCarRow`). */
export const NewCar = z
  .object({
    vin: z.string().trim().min(1).max(40),
    year: z.number().int().min(1900).max(9999),
    model: z.string().trim().min(1).max(80),
    colour: z.string().trim().min(1).max(20),
    locationId: Id,
    dailyRateCents: Cents,
    odometer: z.number().int().min(0).max(2_000_000).default(0),
    selfServe: z.boolean().default(true),
    /** Any spacing or case; kept normalised, unique among cars. */
    licensePlate: z.string().trim().max(20).nullable().default(null),
  })
  .strict();

/** Editing a car: any of its values but the VIN, which names the car. */
export const CarEdit = z
  .object({
    year: z.number().int().min(1900).max(9999),
    model: z.string().trim().min(1).max(80),
    colour: z.string().trim().min(1).max(20),
    locationId: Id,
    dailyRateCents: Cents,
    odometer: z.number().int().min(0).max(2_000_000),
    selfServe: z.boolean(),
    /** null or '' removes the plate. */
    licensePlate: z.string().trim().max(20).nullable(),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Change at least one value.' });

export const NewHold = z
  .object({
    reason: HoldReasonSchema,
    note: z.string().trim().max(500).default(''),
    startsAt: Instant,
    endsAt: Instant,
  })
  .strict();

/** Changing a hold: its period, reason or note, or `endNow` to give the car back early. */
export const HoldEdit = z
  .object({
    reason: HoldReasonSchema,
    note: z.string().trim().max(500),
    startsAt: Instant,
    endsAt: Instant,
    endNow: z.literal(true),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Change at least one value.' });

export const ImportQuery = z.object({ dryRun: z.enum(['true', 'false']).default('true') }).strict();

/** One problem of one CSV row: its line in the file (the header is line 1), its column, what to fix. */
export const ImportRowError = z.object({
  row: z.number(),
  column: z.enum([...FLEET_CSV_COLUMNS, 'file']),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof ImportRowError>;

export const ImportResult = z.object({
  dryRun: z.boolean(),
  /** Rows read (not counting the header). */
  rows: z.number(),
  /** Cars written: 0 on a dry run or a refused import. */
  imported: z.number(),
  errors: z.array(ImportRowError),
});

/** The largest CSV the import takes: 10,000 cars is about 700 KB. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;

export const LocationSummary = z.object({
  id: z.string(),
  name: z.string(),
  street: z.string(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  timezone: z.string(),
  minReservationBufferHours: z.number().nullable(),
  pickupInstructionsHtml: z.string(),
  returnInstructionsHtml: z.string(),
});
export type LocationSummary = z.infer<typeof LocationSummary>;

export const LocationsList = z.object({ locations: z.array(LocationSummary) });

export const LocationEdit = z
  .object({
    street: z.string().trim().min(1).max(200),
    city: z.string().trim().min(1).max(100),
    state: z
      .string()
      .trim()
      .regex(/^[A-Z]{2}$/, 'Use the two-letter state code, e.g. TN.'),
    zipCode: z
      .string()
      .trim()
      .regex(/^\d{5}(-\d{4})?$/, 'Use a five-digit ZIP code.'),
    /** An IANA time zone such as America/Chicago. */
    timezone: z.string().trim().min(1).max(64),
    minReservationBufferHours: z.number().int().min(0).max(168).nullable(),
    pickupInstructionsHtml: z.string().max(20_000),
    returnInstructionsHtml: z.string().max(20_000),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Change at least one value.' });

/** What the console's car form and filters offer: the models, colours and hold reasons, and the CSV's columns. */
export const FleetCatalog = z.object({
  models: z.array(z.object({ id: z.number(), name: z.string() })),
  colours: z.array(z.enum(COLORS)),
  holdReasons: z.array(HoldReasonSchema),
  csvColumns: z.array(z.string()),
});
