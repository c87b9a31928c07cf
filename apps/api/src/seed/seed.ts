import { type Insertable, type Kysely, type Transaction, sql } from 'kysely';
import { blockedUntil } from '@ampere/domain/availability';
import { COLORS, type Color, IMAGE_VIEWS, type SearchOptionType } from '@ampere/domain/constants';
import type { Database } from '../db/schema.ts';
import { CITIES, MODELS } from './cities.ts';
import { makeVin, platformId, seededRandom } from './vin.ts';

type Tx = Transaction<Database>;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export { imageUrl } from '../features/media/paths.ts';
import { imageUrl } from '../features/media/paths.ts';
import { transact } from '../db/transact.ts';

async function insertCatalog(tx: Tx): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const m of MODELS) {
    const row = await tx
      .insertInto('vehicle_models')
      .values({
        name: m.name,
        slug: m.slug,
        type: m.type,
        seating_capacity: m.seating,
        drivetrain: m.drivetrain,
        mile_range: m.range,
        zero_to_sixty_mph_seconds: m.zeroToSixty,
        top_speed_mph: m.topSpeed,
        battery_kwh: m.batteryKwh,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set(m.name, row.id);
    await tx
      .insertInto('model_images')
      .values(
        COLORS.flatMap((color) =>
          IMAGE_VIEWS.map((view, position) => ({
            model_id: row.id,
            color,
            view,
            image_url: imageUrl(m.slug, color, view),
            position,
          })),
        ),
      )
      .execute();
    await tx
      .insertInto('addons')
      .values({
        id: `prepaid-charging-${m.slug}`,
        type: 'PREPAID_EV_CHARGING',
        description: `Return at any charge level: we recharge the ${m.name} (${m.batteryKwh} kWh) for you.`,
        amount: m.chargingCents,
        charge_frequency: 'ONE_TIME',
        category: 'CHARGING',
        model_id: row.id,
      })
      .execute();
  }
  await tx
    .insertInto('addons')
    .values([
      {
        id: 'collision-protection',
        type: 'DAMAGE_WAIVER',
        description: 'Covers damage to the car during your trip, with no deductible to pay.',
        amount: 2_500,
        charge_frequency: 'DAY',
        category: 'DAMAGE_WAIVER',
        model_id: null,
      },
      {
        id: 'unlimited-miles',
        type: 'UNLIMITED_MILES',
        description: 'Drive as far as you like instead of 200 miles a day included.',
        amount: 1_500,
        charge_frequency: 'DAY',
        category: 'MILEAGE',
        model_id: null,
      },
    ])
    .execute();
  return ids;
}

interface VehicleRow {
  vin: string;
  platform_id: string;
  model_id: number;
  location_id: number;
  year: number;
  color: Color;
  odometer: number;
  rack_rate: number;
  is_self_serve_booking_allowed: boolean;
  battery_type: string;
}

/** A platform id not yet in `used` (a million draws from 30^8 would repeat one); any id without a set. */
function freshPlatformId(prefix: string, random: () => number, used: Set<string> | undefined): string {
  let id = platformId(prefix, random);
  while (used?.has(id)) id = platformId(prefix, random);
  used?.add(id);
  return id;
}

function makeVehicle(
  random: () => number,
  serial: number,
  modelIds: Map<string, number>,
  locationId: number,
  index: number,
  used?: Set<string>,
): VehicleRow {
  const model = MODELS[index % MODELS.length]!;
  const color = COLORS[Math.floor(index / MODELS.length + random() * 5) % COLORS.length]!;
  const year = 2022 + Math.floor(random() * 5);
  const age = 2026 - year;
  const odometer = Math.floor(age * 9_000 + random() * 9_000 + (random() < 0.08 ? -age * 9_000 : 0));
  const rack = model.rackRate + (year - 2024) * 300 + (random() < 0.25 ? 50 : 0);
  return {
    // A VIN holds six digits of serial: past a million cars, another plant's letter starts them again.
    vin: makeVin(
      model.wmi,
      model.vdsPrefix,
      year,
      serial >= 1_000_000 ? 'S' : year >= 2024 && model.wmi === '7SA' ? 'A' : 'F',
      serial % 1_000_000,
    ),
    platform_id: freshPlatformId('VEH', random, used),
    model_id: modelIds.get(model.name)!,
    location_id: locationId,
    year,
    color,
    odometer: Math.max(12, odometer),
    rack_rate: rack,
    is_self_serve_booking_allowed: index % 11 !== 7,
    battery_type: model.batteryType,
  };
}

async function insertHolds(
  tx: Tx,
  random: () => number,
  vehicles: { id: number; location_id: number }[],
  zones: Map<number, string>,
  now: Date,
  share = 0.35,
  used?: Set<string>,
) {
  const start = Math.floor(now.getTime() / HOUR) * HOUR;
  const rows: Insertable<Database['reservations']>[] = [];
  for (const v of vehicles) {
    if (random() >= share) continue;
    const pickup = start + Math.floor(random() * 20) * DAY + Math.floor(random() * 10) * HOUR - 2 * DAY;
    const ret = pickup + (2 + Math.floor(random() * 9)) * DAY;
    rows.push({
      platform_id: freshPlatformId('AMP', random, used),
      vehicle_id: v.id,
      user_id: null,
      status: pickup <= now.getTime() ? 'On Rent' : 'Pending',
      pickup_at: new Date(pickup),
      return_at: new Date(ret),
      blocked_until: blockedUntil(new Date(ret)),
      timezone: zones.get(v.location_id)!,
      pickup_location_id: v.location_id,
      dropoff_location_id: v.location_id,
    });
  }
  for (let i = 0; i < rows.length; i += 500)
    await tx
      .insertInto('reservations')
      .values(rows.slice(i, i + 500))
      .execute();
  return rows.length;
}

async function isSeeded(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('vehicle_models')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n) > 0;
}

export const DEMO_VEHICLES_PER_CITY = 30;

/** Seeds the six-city demo fleet once; later starts leave the data as it is. */
export async function seedDemo(db: Kysely<Database>, now: Date): Promise<{ seeded: boolean }> {
  if (await isSeeded(db)) return { seeded: false };
  await transact(db, async (tx) => {
    await sql`select pg_advisory_xact_lock(727001)`.execute(tx);
    if (await isSeeded(tx)) return;
    const random = seededRandom(20261122);
    const modelIds = await insertCatalog(tx);
    const zones = new Map<number, string>();
    let serial = 100_001;
    for (const city of CITIES) {
      const region = await tx
        .insertInto('regions')
        .values({
          name: city.name,
          state: city.state,
          latitude: city.latitude,
          longitude: city.longitude,
          timezone: city.timezone,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const option = (
        type: SearchOptionType,
        query: string,
        p: { latitude: number; longitude: number },
        rank: number,
      ) => ({
        region_id: region.id,
        type,
        query,
        state: city.state,
        latitude: p.latitude,
        longitude: p.longitude,
        timezone: city.timezone,
        min_reservation_buffer_hours: city.bufferHours,
        rank,
      });
      await tx
        .insertInto('search_options')
        .values([
          option('CITY', `${city.name}, ${city.state}`, city, 100),
          option('STATE', city.stateName, city, 10),
          option('AIRPORT', city.airport.name, city.airport, 50),
          option('ZIP_CODE', city.zip.name, city.zip, 20),
          ...city.landmarks.map((l) => option('LANDMARK', l.name, l, 30)),
          ...city.locations.map((l) => option('LOT', l.name, l, 40)),
        ])
        .onConflict((oc) => oc.columns(['type', 'query']).doNothing())
        .execute();
      const locationIds: number[] = [];
      for (const l of city.locations) {
        const row = await tx
          .insertInto('locations')
          .values({
            region_id: region.id,
            name: l.name,
            street: l.street,
            city: city.name,
            state: city.state,
            zip_code: l.zip,
            latitude: l.latitude,
            longitude: l.longitude,
            timezone: city.timezone,
            is_airport: l.isAirport,
            pickup_instructions_html: l.pickup,
            return_instructions_html: l.dropoff,
            tax_rate_ppm: city.taxRatePpm,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        locationIds.push(row.id);
        zones.set(row.id, city.timezone);
      }
      const vehicles = Array.from({ length: DEMO_VEHICLES_PER_CITY }, (_, i) =>
        makeVehicle(random, serial++, modelIds, locationIds[i % locationIds.length]!, i),
      );
      const inserted = await tx.insertInto('vehicles').values(vehicles).returning(['id', 'location_id']).execute();
      await insertHolds(tx, random, inserted, zones, now);
    }
  });
  return { seeded: true };
}

const SCALE_STATES = ['TN', 'MO', 'TX', 'AZ', 'NV', 'CA', 'CO', 'GA', 'FL', 'IL', 'NY', 'WA', 'OR', 'NC', 'OH', 'MI'];

function zoneForLongitude(lng: number): string {
  if (lng < -114.5) return 'America/Los_Angeles';
  if (lng < -102) return 'America/Denver';
  if (lng < -87) return 'America/Chicago';
  return 'America/New_York';
}

/**
 * Adds a large synthetic fleet for benchmarks: `locations` pickup points in groups of five per
 * metro, `vehicles` cars spread over them, a third of them with a reservation.
 */
export async function seedScale(
  db: Kysely<Database>,
  opts: { vehicles: number; locations: number; now: Date },
): Promise<{ regions: number; searchOptionIds: number[] }> {
  const regionCount = Math.ceil(opts.locations / 5);
  const searchOptionIds: number[] = [];
  await transact(db, async (tx) => {
    // Everything an attempt builds starts afresh, should transact() run it again.
    const random = seededRandom(4242);
    searchOptionIds.length = 0;
    const modelIds = new Map(
      (await tx.selectFrom('vehicle_models').select(['id', 'name']).execute()).map((m) => [m.name, m.id]),
    );
    if (modelIds.size === 0) throw new Error('Seed the demo catalog first.');
    const maxSerial = await tx
      .selectFrom('vehicles')
      .select((eb) => eb.fn.count<number>('id').as('n'))
      .executeTakeFirstOrThrow();
    let serial = 200_001 + Number(maxSerial.n);
    const locationIds: number[] = [];
    const zones = new Map<number, string>();
    const stamp = Date.now().toString(36);
    // Platform ids drawn so far, so a million cars' (and their trips') stay unique.
    const carIds = new Set((await tx.selectFrom('vehicles').select('platform_id').execute()).map((v) => v.platform_id));
    const tripIds = new Set(
      (await tx.selectFrom('reservations').select('platform_id').execute()).map((r) => r.platform_id),
    );
    for (let r = 0; r < regionCount; r++) {
      const lat = 30 + random() * 16;
      const lng = -121 + random() * 45;
      const tz = zoneForLongitude(lng);
      const state = SCALE_STATES[r % SCALE_STATES.length]!;
      const name = `Metro ${stamp}-${r + 1}`;
      const region = await tx
        .insertInto('regions')
        .values({ name, state, latitude: lat, longitude: lng, timezone: tz })
        .returning('id')
        .executeTakeFirstOrThrow();
      const opt = await tx
        .insertInto('search_options')
        .values({
          region_id: region.id,
          type: 'CITY',
          query: `${name}, ${state}`,
          state,
          latitude: lat,
          longitude: lng,
          timezone: tz,
          min_reservation_buffer_hours: 4,
          rank: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      searchOptionIds.push(opt.id);
      const count = Math.min(5, opts.locations - r * 5);
      const rows = Array.from({ length: count }, (_, i) => ({
        region_id: region.id,
        name: `${name} Lot ${i + 1}`,
        street: `${100 + i * 10} Main St`,
        city: name,
        state,
        zip_code: String(10000 + r * 5 + i).padStart(5, '0'),
        latitude: lat + (random() - 0.5) * 0.3,
        longitude: lng + (random() - 0.5) * 0.3,
        timezone: tz,
        is_airport: i === 0,
        pickup_instructions_html: '<p>Follow the green Ampere signs.</p>',
        return_instructions_html: '<p>Park in an Ampere bay and tap End Trip.</p>',
        tax_rate_ppm: 80_000 + Math.floor(random() * 20) * 1_000,
      }));
      for (const loc of await tx.insertInto('locations').values(rows).returning('id').execute()) {
        locationIds.push(loc.id);
        zones.set(loc.id, tz);
      }
    }
    for (let i = 0; i < opts.vehicles; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, opts.vehicles - i) }, (_, j) =>
        makeVehicle(random, serial++, modelIds, locationIds[(i + j) % locationIds.length]!, i + j, carIds),
      );
      const inserted = await tx.insertInto('vehicles').values(batch).returning(['id', 'location_id']).execute();
      await insertHolds(tx, random, inserted, zones, opts.now, 0.35, tripIds);
    }
  });
  return { regions: regionCount, searchOptionIds };
}
