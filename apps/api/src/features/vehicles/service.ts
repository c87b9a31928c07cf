import type { Kysely } from 'kysely';
import { availabilityByDate } from '@ampere/domain/availability';
import { isNewReservation } from '@ampere/domain/booking';
import {
  COLORS,
  type Color,
  DATE_RANGE_LIMIT_DAYS,
  type ImageView,
  MAX_PICKUP_DAYS_AHEAD,
} from '@ampere/domain/constants';
import type {
  Location,
  PriceQuote,
  Vehicle,
  VehicleModel,
  VehicleSearchQuery,
  VehicleSearchResult,
} from '@ampere/domain/contract/catalog';
import { tripProblems } from '@ampere/domain/dates';
import { baseModel } from '@ampere/domain/filters';
import { mainPhoto } from '@ampere/domain/photos';
import { quoteTrip } from '@ampere/domain/pricing';
import { rentalDays } from '@ampere/domain/rental';
import { toInstant, toLocal } from '@ampere/domain/time';
import type { Database } from '../../db/schema.ts';
import { notFound, unprocessable } from '../../http/errors.ts';
import * as repo from './repository.ts';
import { modelView } from './model-view.ts';
import type { SearchIndex } from './search-index.ts';

type Row = NonNullable<Awaited<ReturnType<typeof repo.findVehicleByVin>>>;

type ModelFields = Pick<
  Row,
  | 'model_name'
  | 'model_slug'
  | 'model_type'
  | 'seating_capacity'
  | 'drivetrain'
  | 'mile_range'
  | 'zero_to_sixty_mph_seconds'
  | 'top_speed_mph'
>;

const modelOf = (r: ModelFields): VehicleModel =>
  modelView({
    name: r.model_name,
    slug: r.model_slug,
    type: r.model_type,
    seating_capacity: r.seating_capacity,
    drivetrain: r.drivetrain,
    mile_range: r.mile_range,
    zero_to_sixty_mph_seconds: r.zero_to_sixty_mph_seconds,
    top_speed_mph: r.top_speed_mph,
  });

const locationOf = (r: Row): Location => ({
  id: r.id,
  name: r.name,
  street: r.street,
  city: r.city,
  state: r.state,
  zip_code: r.zip_code,
  latitude: r.latitude,
  longitude: r.longitude,
  timezone: r.timezone,
  is_airport: r.is_airport,
  region_id: r.region_id,
  pickup_instructions_html: r.pickup_instructions_html,
  return_instructions_html: r.return_instructions_html,
  tax_rate_ppm: r.tax_rate_ppm,
  min_reservation_buffer_hours: r.min_reservation_buffer_hours,
});

type ImageKey = { model_id: number; color: Color };

async function imageMap(db: Kysely<Database>, rows: ImageKey[], views?: ImageView[]) {
  const pairs = [
    ...new Map(rows.map((r) => [`${r.model_id}:${r.color}`, { modelId: r.model_id, color: r.color }])).values(),
  ];
  const map = new Map<string, { view: ImageView; image_url: string }[]>();
  for (const img of await repo.imagesFor(db, pairs, views)) {
    const key = `${img.model_id}:${img.color}`;
    if (!map.has(key)) map.set(key, []);
    map.get(key)!.push({ view: img.view, image_url: img.image_url });
  }
  return (r: ImageKey) => map.get(`${r.model_id}:${r.color}`) ?? [];
}

/**
 * The car's photos: its model's drawings in its colour, each view it has a photo of replaced by
 * that photo (decision 085), in the drawings' order.
 */
async function carImages(db: Kysely<Database>, row: ImageKey & { vehicle_id: number }) {
  const [drawn, own] = await Promise.all([imageMap(db, [row]), repo.carPhotosFor(db, [row.vehicle_id])]);
  const byView = new Map(own.map((p) => [p.view, p.image_url]));
  const images = drawn(row).map((i) => ({ view: i.view, image_url: byView.get(i.view) ?? i.image_url }));
  for (const p of own)
    if (!images.some((i) => i.view === p.view)) images.push({ view: p.view, image_url: p.image_url });
  return images;
}

/**
 * Cars free for the whole period near a search location, nearest first, a page at a time, each
 * with the all-in price for the chosen dates (the same quote checkout will charge, before extras).
 *
 * Answered from the in-memory index and written as JSON from each car's cached fragment plus its
 * distance and price: the route's hottest path, and the response schema's shape
 * (VehicleSearchResult), which the integration tests parse every answer against.
 */
export async function searchVehiclesJson(
  index: SearchIndex,
  searchQueryId: number,
  q: VehicleSearchQuery,
  now: Date,
): Promise<string> {
  await index.ensureFresh();
  const { option, state } = await index.scope(searchQueryId);
  const tz = option.timezone;
  const trip = {
    pickupDate: q.pickupDate,
    pickupTime: q.pickupTime,
    returnDate: q.returnDate,
    returnTime: q.returnTime,
  };
  const problem = tripProblems(trip, now, tz, option.min_reservation_buffer_hours).find(
    (p) => p.field !== 'pickupTime',
  );
  if (problem) throw unprocessable(problem.message, problem.field);
  const page = index.search(
    option.type === 'STATE' ? { state, origin: option } : { regionId: option.region_id, origin: option },
    {
      from: toInstant({ date: q.pickupDate, time: q.pickupTime }, tz),
      to: toInstant({ date: q.returnDate, time: q.returnTime }, tz),
      model: q.model,
      variant: q.variant,
      color: q.color,
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
    },
  );
  const days = rentalDays({ date: q.pickupDate, time: q.pickupTime }, { date: q.returnDate, time: q.returnTime });
  // Cars of a metro share a few rates: quote each rate and tax once per search, as bytes that
  // also close the item.
  const prices = new Map<number, Buffer>();
  const priceBytes = (rack: number, taxPpm: number) => {
    const key = rack * 1_000_000 + taxPpm;
    let bytes = prices.get(key);
    if (bytes === undefined) {
      const quote = quoteTrip({ rackRateCents: rack, days, taxRatePpm: taxPpm });
      const price: PriceQuote = {
        days,
        rack_total: quote.lines[0]!.amountCents,
        tax: quote.taxCents,
        total: quote.totalCents,
      };
      prices.set(key, (bytes = Buffer.from(`${JSON.stringify(price)}}`)));
    }
    return bytes;
  };
  // Each car's bytes from the index (decision 097), its distance's and its price's: the body is
  // copied together once, never re-encoded.
  const { fleet } = page;
  const parts: Buffer[] = [ITEMS_OPEN];
  for (let i = 0; i < page.items.length; i++) {
    const { at, distance } = page.items[i]!;
    if (i > 0) parts.push(COMMA);
    parts.push(fleet.itemHeadBytes(at), distanceBytes(distance), priceBytes(fleet.rackRate[at]!, fleet.taxRatePpm(at)));
  }
  const filters: VehicleSearchResult['filters'] = {
    colors: COLORS.filter((c) => page.colors.includes(c)),
    models: [...new Set(page.models.map(baseModel))].sort(),
  };
  parts.push(
    Buffer.from(`],"filters":${JSON.stringify(filters)},"total":${page.total},"page":${q.page},"limit":${q.limit}}`),
  );
  // Sent as text (decision 100): a body of bytes is memory outside the heap, and the few thousand
  // a second of them still being written when the young generation is collected are promoted and
  // freed only by a full collection, which they start again and again at a million cars. The text
  // lives in the heap, and the bytes it is written from are the socket's own.
  return join(parts).toString();
}

/** Buffer.concat without its per-piece checks: one allocation, one copy per piece. */
function join(parts: Buffer[]): Buffer {
  let length = 0;
  for (let i = 0; i < parts.length; i++) length += parts[i]!.length;
  const out = Buffer.allocUnsafe(length);
  let offset = 0;
  for (let i = 0; i < parts.length; i++) {
    out.set(parts[i]!, offset);
    offset += parts[i]!.length;
  }
  return out;
}

const COMMA = Buffer.from(',');
const ITEMS_OPEN = Buffer.from('{"items":[');

/** `,"distance_miles":12.3,"price":` for a distance rounded to a tenth of a mile; few distinct values recur. */
const distanceCache = new Map<number, Buffer>();
function distanceBytes(distance: number): Buffer {
  const tenths = Math.round(distance * 10);
  let bytes = distanceCache.get(tenths);
  if (bytes === undefined) {
    if (distanceCache.size >= 100_000) distanceCache.clear();
    distanceCache.set(tenths, (bytes = Buffer.from(`,"distance_miles":${tenths / 10},"price":`)));
  }
  return bytes;
}

/** The URL of the car page's main photo for a VIN (null for an unknown car), for the page's HTML to preload. */
export async function mainPhotoUrl(db: Kysely<Database>, vin: string): Promise<string | null> {
  const row = await repo.findVehicleByVin(db, vin);
  if (!row) return null;
  return mainPhoto(await carImages(db, row))?.image_url ?? null;
}

/**
 * GET /api/v1/vehicles/{vin}. For a signed-in renter (`userId`), their own unpaid (Started) bookings
 * of the car do not count as taken — booking it again replaces them — and the latest is returned as
 * `own_booking`, so the page offers 'Continue your booking' instead of "Not available".
 */
export async function getVehicle(
  db: Kysely<Database>,
  vin: string,
  now: Date,
  userId: string | null = null,
): Promise<Vehicle> {
  const row = await repo.findVehicleByVin(db, vin);
  if (!row) throw notFound(`No vehicle with VIN ${vin.toUpperCase()}.`, 'id');
  const [images, holds, staffHolds] = await Promise.all([
    carImages(db, row),
    repo.activeReservationHolds(db, row.vehicle_id, now),
    repo.liveStaffHolds(db, row.vehicle_id, now),
  ]);
  // The renter's own unpaid booking of the car does not count as taken.
  const own = (h: (typeof holds)[number]) => userId !== null && h.user_id === userId && isNewReservation(h);
  const busy = [
    ...holds
      .filter((h) => !own(h))
      .map((h) => ({ from: new Date(h.held_from).getTime(), until: new Date(h.blocked_until).getTime() })),
    ...staffHolds.map((h) => ({ from: new Date(h.starts_at).getTime(), until: new Date(h.ends_at).getTime() })),
  ].sort((a, b) => a.from - b.from);
  const mine = holds.filter(own).sort((a, b) => b.created_at.getTime() - a.created_at.getTime())[0];
  return {
    vin: row.vin,
    year: row.year,
    color: row.color,
    odometer: row.odometer,
    rack_rate: row.rack_rate,
    is_self_serve_booking_allowed: row.is_self_serve_booking_allowed,
    platform_id: row.platform_id,
    battery_type: row.battery_type,
    images,
    model: modelOf(row),
    location: locationOf(row),
    availability: availabilityByDate(
      busy,
      row.timezone,
      toLocal(now, row.timezone).date,
      MAX_PICKUP_DAYS_AHEAD + DATE_RANGE_LIMIT_DAYS + 1,
    ),
    busy: busy.map((b) => ({ from: new Date(b.from).toISOString(), until: new Date(b.until).toISOString() })),
    own_booking: mine
      ? {
          platform_id: mine.platform_id,
          pickup_at: mine.pickup_at.toISOString(),
          return_at: mine.return_at.toISOString(),
        }
      : null,
  };
}

export async function listModels(db: Kysely<Database>): Promise<VehicleModel[]> {
  return (await repo.listModels(db)).map(modelView);
}
