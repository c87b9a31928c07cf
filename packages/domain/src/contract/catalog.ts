import { z } from './zod.ts';
import { ADDON_TYPES, COLORS, IMAGE_VIEWS, SEARCH_OPTION_TYPES } from '../constants.ts';
import { VARIANTS, parseVariant } from '../filters.ts';
import { Cents, IdParam, IsoInstant, LocalDateParam, LocalTimeParam } from './common.ts';

export const SearchOption = z.object({
  id: z.number().int(),
  query: z.string(),
  type: z.enum(SEARCH_OPTION_TYPES),
  latitude: z.number(),
  longitude: z.number(),
  timezone: z.string(),
  min_reservation_buffer_hours: z.number().int().nullable(),
  region_id: z.number().int(),
});
export type SearchOption = z.infer<typeof SearchOption>;

export const SearchOptionList = z.object({ options: z.array(SearchOption) });
export const AutocompleteQuery = z.object({
  query: z.string().trim().max(100, 'must be at most 100 characters').default(''),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1, 'must be at least 1')
    .max(20, 'must be at most 20')
    .default(5),
});
export const SearchIdParams = z.object({ id: IdParam });

export const Location = z.object({
  id: z.number().int(),
  name: z.string(),
  street: z.string(),
  city: z.string(),
  state: z.string(),
  zip_code: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  timezone: z.string(),
  is_airport: z.boolean(),
  region_id: z.number().int(),
  pickup_instructions_html: z.string(),
  return_instructions_html: z.string(),
  tax_rate_ppm: z.number().int(),
  /** Hours of notice a pickup here needs (its lot's search option's, else its city's); null: the default (spec 9). */
  min_reservation_buffer_hours: z.number().int().nullable(),
});
export type Location = z.infer<typeof Location>;

export const LocationSearchQuery = z.object({
  query: z.string().trim().max(100, 'must be at most 100 characters').default(''),
  region_id: IdParam.optional(),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1, 'must be at least 1')
    .max(50, 'must be at most 50')
    .default(5),
});
export const LocationListQuery = z.object({
  region_id: IdParam.optional(),
  page: z.coerce.number({ error: 'must be a number' }).int().min(1, 'must be at least 1').default(1),
  size: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(10),
});
export const LocationList = z.object({
  locations: z.array(Location),
  page: z.number().int(),
  size: z.number().int(),
  total: z.number().int(),
});
export const LocationSearchResult = z.object({ locations: z.array(Location) });

export const City = z.object({
  region_id: z.number().int(),
  search_query_id: z.number().int(),
  name: z.string(),
  state: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  timezone: z.string(),
  distance_miles: z.number().nullable(),
});
export type City = z.infer<typeof City>;
export const CitiesQuery = z.object({
  latitude: z.coerce
    .number({ error: 'must be a number' })
    .min(-90, 'must be between -90 and 90')
    .max(90, 'must be between -90 and 90')
    .optional(),
  longitude: z.coerce
    .number({ error: 'must be a number' })
    .min(-180, 'must be between -180 and 180')
    .max(180, 'must be between -180 and 180')
    .optional(),
});
export const CityList = z.object({ cities: z.array(City) });

export const VehicleModel = z.object({
  name: z.string(),
  type: z.string(),
  seating_capacity: z.number().int(),
  drivetrain: z.string(),
  mile_range: z.number().int(),
  zero_to_sixty_mph_seconds: z.number(),
  top_speed_mph: z.number().int(),
  public_image_link: z.string(),
});
export type VehicleModel = z.infer<typeof VehicleModel>;
export const VehicleModelList = z.object({ models: z.array(VehicleModel) });

export const VehicleImage = z.object({ view: z.enum(IMAGE_VIEWS), image_url: z.string() });

const VehicleBase = z.object({
  vin: z.string(),
  year: z.number().int(),
  color: z.enum(COLORS),
  odometer: z.number().int(),
  rack_rate: Cents,
  is_self_serve_booking_allowed: z.boolean(),
  platform_id: z.string(),
  battery_type: z.string(),
  images: z.array(VehicleImage),
  model: VehicleModel,
});

export const PriceQuote = z.object({
  days: z.number().int(),
  rack_total: Cents,
  tax: Cents,
  total: Cents,
});
export type PriceQuote = z.infer<typeof PriceQuote>;

export const VehicleSearchItem = VehicleBase.extend({
  location: Location.pick({
    id: true,
    name: true,
    street: true,
    city: true,
    state: true,
    latitude: true,
    longitude: true,
    timezone: true,
  }),
  distance_miles: z.number(),
  price: PriceQuote,
});
export type VehicleSearchItem = z.infer<typeof VehicleSearchItem>;

export const VehicleSearchParams = z.object({ searchQueryId: IdParam });
export const VehicleSearchQuery = z.object({
  pickupDate: LocalDateParam,
  returnDate: LocalDateParam,
  pickupTime: LocalTimeParam.default('10:00'),
  returnTime: LocalTimeParam.default('10:00'),
  model: z.string().max(40, 'must be at most 40 characters').optional(),
  // Spec 7: the filters' own words ('Long Range'); the domain reads every spelling of them.
  variant: z
    .string()
    .transform((v) => parseVariant(v) ?? v)
    .pipe(z.enum(VARIANTS, { error: "must be 'Long Range' or 'Standard'" }))
    .optional(),
  color: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(COLORS, { error: `must be one of ${COLORS.join(', ')}` }))
    .optional(),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(50),
  page: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(1),
});
export type VehicleSearchQuery = z.infer<typeof VehicleSearchQuery>;
export const VehicleSearchResult = z.object({
  items: z.array(VehicleSearchItem),
  filters: z.object({ colors: z.array(z.enum(COLORS)), models: z.array(z.string()) }),
  /** Cars matching the filters in all; items holds one page of them, nearest first. */
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type VehicleSearchResult = z.infer<typeof VehicleSearchResult>;

export const VehicleParams = z.object({ id: z.string().regex(/^[A-HJ-NPR-Z0-9]{17}$/i, 'must be a 17-character VIN') });
export const Vehicle = VehicleBase.extend({
  location: Location,
  /** Decision 015: false only for a date with no pickup and no return time left (the same rule as `busy`). */
  availability: z.record(z.string(), z.boolean()),
  /**
   * Decision 015: each active booking's hold on the car, from its pickup until its return plus
   * the turnaround, as instants; the booking card decides with them which times and periods are free.
   */
  busy: z.array(z.object({ from: z.string(), until: z.string() })),
  /** The signed-in renter's unpaid booking of this car, to continue ('Continue your booking'); null otherwise. */
  own_booking: z.object({ platform_id: z.string(), pickup_at: z.string(), return_at: z.string() }).nullable(),
});
export type Vehicle = z.infer<typeof Vehicle>;

export const Addon = z.object({
  id: z.string(),
  type: z.enum(ADDON_TYPES),
  name: z.string(),
  description: z.string(),
  amount: Cents,
  charge_frequency: z.enum(['DAY', 'ONE_TIME']),
  category: z.string(),
});
export type Addon = z.infer<typeof Addon>;
export const RelatedAddonsBody = z.object({
  vehicleVin: z.string().regex(/^[A-HJ-NPR-Z0-9]{17}$/i, 'must be a 17-character VIN'),
  pickupAt: IsoInstant('must be an ISO 8601 date-time with an offset'),
  returnAt: IsoInstant('must be an ISO 8601 date-time with an offset'),
});
export const AddonList = z.object({ addons: z.array(Addon) });
