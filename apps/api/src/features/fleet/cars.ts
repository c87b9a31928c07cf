import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type {
  CarEdit,
  CarPage,
  CarSummary,
  CarsPage,
  CarsQuery,
  FleetCatalog,
  NewCar,
} from '@ampere/domain/contract/ops-fleet';
import { COLORS } from '@ampere/domain/constants';
import {
  type CarRowContext,
  type CarRowInput,
  FLEET_CSV_COLUMNS,
  type FleetCsvColumn,
  HOLD_REASONS,
  checkCarRow,
} from '@ampere/domain/fleet';
import type { Database } from '../../db/schema.ts';
import { afterCommit, transact } from '../../db/transact.ts';
import { AppError, notFound, unprocessable } from '../../http/errors.ts';
import type { OpsContext } from '../../http/ops-route.ts';
import * as holdsRepo from './holds-repository.ts';
import * as repo from './repository.ts';

/** The console's cars (decision 083): list, page, add, edit, retire; search sees each change at once. */

export interface FleetDeps {
  db: Kysely<Database>;
  /** The search index of this process: told of every change so the next search reads it. */
  searchIndex: { markStale(): void; markFleetStale(): void };
}

export const CAR_NOT_FOUND = 'We could not find that car.';

/** The locations a staff member sees, as the database's location ids. */
export function scopeOf(ops: Pick<OpsContext, 'staff'>): repo.LocationScope {
  const ids = ops.staff.locationIds;
  return ids === 'all' ? 'all' : ids.map(Number).filter((n) => Number.isSafeInteger(n));
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function carSummary(row: NonNullable<Awaited<ReturnType<typeof repo.findCar>>>): CarSummary {
  return {
    id: row.id,
    vin: row.vin,
    year: row.year,
    model: row.model_name,
    modelId: row.model_id,
    colour: row.color,
    locationId: String(row.location_id),
    locationName: row.location_name,
    timezone: row.timezone,
    dailyRateCents: row.rack_rate,
    odometer: row.odometer,
    batteryPercent: row.battery_level === null ? null : Math.round(Number(row.battery_level) * 1000) / 10,
    status: row.status,
    retiredAt: iso(row.retired_at),
    selfServe: row.is_self_serve_booking_allowed,
    licensePlate: row.license_plate,
  };
}

export async function listCars(db: Kysely<Database>, ops: OpsContext, q: CarsQuery): Promise<z.input<typeof CarsPage>> {
  if (q.locationId !== undefined && !ops.inScope(String(q.locationId))) return { cars: [], total: 0, ...page(q) };
  const { rows, total } = await repo.listCars(db, scopeOf(ops), q, ops.now);
  return { cars: rows.map(carSummary), total, ...page(q) };
}

const page = (q: CarsQuery) => ({ limit: q.limit, offset: q.offset });

/** The car, if it exists and is at a location the staff member works at; else the 404 (audited). */
async function carInScope(db: Kysely<Database>, ops: OpsContext, carId: number) {
  const row = await repo.findCar(db, carId, ops.now);
  if (!row) throw notFound(CAR_NOT_FOUND);
  ops.requireInScope(String(row.location_id), CAR_NOT_FOUND);
  return row;
}

const percent = (fraction: unknown) => (fraction === null ? null : Math.round(Number(fraction) * 1000) / 10);
const miles = (value: unknown) => (value === null ? null : Number(value));

export async function carPage(db: Kysely<Database>, ops: OpsContext, carId: number): Promise<z.input<typeof CarPage>> {
  const row = await carInScope(db, ops, carId);
  const [bookings, holds, rides, photos] = await Promise.all([
    repo.carBookings(db, carId),
    repo.carHolds(db, carId),
    repo.carRides(db, carId),
    repo.carPhotos(db, row.model_id, row.color),
  ]);
  const timeline = [
    ...bookings.map((b) => ({
      kind: 'booking' as const,
      id: b.id,
      label: b.platform_id,
      status: b.status,
      from: iso(b.held_from)!,
      until: iso(b.return_at)!,
      note: null,
    })),
    ...holds.map((h) => ({
      kind: 'hold' as const,
      id: h.id,
      label: h.reason,
      status: h.canceled_at ? 'cancelled' : new Date(h.ends_at) <= ops.now ? 'ended' : 'active',
      from: iso(h.starts_at)!,
      until: iso(h.ends_at)!,
      note: h.note,
    })),
  ].sort((a, b) => (a.from < b.from ? 1 : a.from > b.from ? -1 : 0));
  return {
    car: carSummary(row),
    timeline,
    rides: rides.map((r) => ({
      tripReference: r.platform_id,
      pickupAt: iso(r.vehicle_pickup_at)!,
      returnAt: iso(r.vehicle_return_at),
      mileageOut: miles(r.mileage_out),
      mileageIn: miles(r.mileage_in),
      batteryOutPercent: percent(r.battery_out),
      batteryInPercent: percent(r.battery_in),
    })),
    photos: photos.map((p) => ({ view: p.view, url: p.image_url })),
  };
}

/** What a car's values are checked against: the models, and the locations the staff member works at. */
export async function rowContext(db: Kysely<Database>, ops: Pick<OpsContext, 'staff' | 'now'>): Promise<CarRowContext> {
  const [models, locations] = await Promise.all([repo.models(db), repo.locationNames(db, scopeOf(ops))]);
  const modelMap = new Map<string, number>();
  for (const m of models) {
    modelMap.set(m.name.toLowerCase(), m.id);
    modelMap.set(m.slug.toLowerCase(), m.id);
  }
  const locationMap = new Map<string, number>();
  for (const l of locations) {
    locationMap.set(l.name.toLowerCase(), l.id);
    locationMap.set(String(l.id), l.id);
  }
  return { models: modelMap, locations: locationMap, currentYear: ops.now.getUTCFullYear() };
}

/** A form's field for each CSV column, so a 422 names the field the person typed in. */
const FIELD_OF: Record<FleetCsvColumn, string> = {
  vin: 'vin',
  year: 'year',
  model: 'model',
  colour: 'colour',
  location: 'locationId',
  daily_rate_cents: 'dailyRateCents',
  odometer: 'odometer',
  license_plate: 'licensePlate',
};

function checked(input: CarRowInput, ctx: CarRowContext) {
  const result = checkCarRow(input, ctx);
  if (!result.ok) {
    const first = result.problems[0]!;
    throw unprocessable(result.problems.map((p) => p.message).join(' '), FIELD_OF[first.column]);
  }
  return result.car;
}

/** A plate names one car: another car with it is a 409 naming the field. */
async function plateFree(db: Kysely<Database>, plate: string | null, carId: number | null): Promise<void> {
  if (plate === null) return;
  const other = await repo.carWithPlate(db, plate);
  if (other && other.id !== carId)
    throw new AppError('CONFLICT', `The car ${other.vin} already has plate ${plate}.`, 'licensePlate');
}

/** A platform id for a new car, as the seeded ones look ('VEH-7K3Q-9XW2'). */
export function newCarPlatformId(): string {
  const alphabet = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = randomBytes(8);
  const chunk = (from: number) =>
    Array.from(bytes.subarray(from, from + 4), (b) => alphabet[b % alphabet.length]).join('');
  return `VEH-${chunk(0)}-${chunk(4)}`;
}

export async function addCar(deps: FleetDeps, ops: OpsContext, body: z.output<typeof NewCar>): Promise<CarSummary> {
  ops.requireInScope(String(body.locationId), 'We could not find that location.');
  const ctx = await rowContext(deps.db, ops);
  const car = checked(
    {
      vin: body.vin,
      year: String(body.year),
      model: body.model,
      colour: body.colour,
      location: String(body.locationId),
      daily_rate_cents: String(body.dailyRateCents),
      odometer: String(body.odometer),
      license_plate: body.licensePlate ?? '',
    },
    ctx,
  );
  const id = await transact(deps.db, async (trx) => {
    if ((await repo.existingVins(trx, [car.vin])).size > 0)
      throw new AppError('CONFLICT', `The fleet already has a car with VIN ${car.vin}.`, 'vin');
    await plateFree(trx, car.licensePlate, null);
    const battery = (await repo.batteryTypes(trx)).get(car.modelId) ?? 'NCA';
    const [carId] = await repo.insertCars(trx, [
      {
        vin: car.vin,
        platform_id: newCarPlatformId(),
        model_id: car.modelId,
        location_id: car.locationId,
        year: car.year,
        color: car.color,
        odometer: car.odometer,
        rack_rate: car.rackRateCents,
        is_self_serve_booking_allowed: body.selfServe,
        battery_type: battery,
        license_plate: car.licensePlate,
      },
    ]);
    const after = carSummary((await repo.findCar(trx, carId!, ops.now))!);
    await ops.audit(trx, { target: { type: 'car', id: String(carId) }, locationId: after.locationId, after });
    await afterCommit(trx, () => deps.searchIndex.markFleetStale());
    return carId!;
  });
  return carSummary((await repo.findCar(deps.db, id, ops.now))!);
}

export async function editCar(
  deps: FleetDeps,
  ops: OpsContext,
  carId: number,
  body: z.output<typeof CarEdit>,
): Promise<CarSummary> {
  await carInScope(deps.db, ops, carId);
  if (body.locationId !== undefined) ops.requireInScope(String(body.locationId), 'We could not find that location.');
  const ctx = await rowContext(deps.db, ops);
  return transact(deps.db, async (trx) => {
    await repo.lockCar(trx, carId);
    const row = (await repo.findCar(trx, carId, ops.now))!;
    const before = carSummary(row);
    if (row.retired_at) throw new AppError('CONFLICT', 'This car is retired; a retired car cannot be changed.');
    const car = checked(
      {
        vin: row.vin,
        year: String(body.year ?? row.year),
        model: body.model ?? row.model_name,
        colour: body.colour ?? row.color,
        location: String(body.locationId ?? row.location_id),
        daily_rate_cents: String(body.dailyRateCents ?? row.rack_rate),
        odometer: String(body.odometer ?? row.odometer),
        license_plate: body.licensePlate === undefined ? (row.license_plate ?? '') : (body.licensePlate ?? ''),
      },
      ctx,
    );
    if (car.licensePlate !== row.license_plate) await plateFree(trx, car.licensePlate, carId);
    if (car.locationId !== row.location_id) {
      const upcoming = await repo.upcomingBookings(trx, carId, ops.now);
      if (upcoming.length > 0)
        throw new AppError(
          'CONFLICT',
          `This car cannot move to another location while it has upcoming trips: ${upcoming.map((u) => u.platform_id).join(', ')}.`,
          'locationId',
        );
    }
    await repo.updateCar(trx, carId, {
      model_id: car.modelId,
      location_id: car.locationId,
      year: car.year,
      color: car.color,
      odometer: car.odometer,
      rack_rate: car.rackRateCents,
      is_self_serve_booking_allowed: body.selfServe ?? row.is_self_serve_booking_allowed,
      license_plate: car.licensePlate,
    });
    const after = carSummary((await repo.findCar(trx, carId, ops.now))!);
    await ops.audit(trx, { target: { type: 'car', id: String(carId) }, locationId: after.locationId, before, after });
    await afterCommit(trx, () => deps.searchIndex.markFleetStale());
    return after;
  });
}

export async function retireCar(deps: FleetDeps, ops: OpsContext, carId: number): Promise<CarSummary> {
  await carInScope(deps.db, ops, carId);
  return transact(deps.db, async (trx) => {
    // The same lock a booking of the car takes: no booking slips in between the check and the flag.
    await repo.lockCar(trx, carId);
    const row = (await repo.findCar(trx, carId, ops.now))!;
    if (row.retired_at) throw new AppError('CONFLICT', 'This car is already retired.');
    const upcoming = await repo.upcomingBookings(trx, carId, ops.now);
    if (upcoming.length > 0)
      throw new AppError(
        'CONFLICT',
        `This car has upcoming trips: ${upcoming.map((u) => u.platform_id).join(', ')}. Move or cancel them before retiring it.`,
      );
    const before = carSummary(row);
    await repo.retireCar(trx, carId, ops.now);
    const holdsEnded = await holdsRepo.endHoldsOfCar(trx, carId, ops.now);
    const after = carSummary((await repo.findCar(trx, carId, ops.now))!);
    await ops.audit(trx, {
      target: { type: 'car', id: String(carId) },
      locationId: after.locationId,
      before,
      after: { ...after, holdsEnded },
    });
    await afterCommit(trx, () => deps.searchIndex.markFleetStale());
    return after;
  });
}

/** The models, colours and hold reasons the console's forms offer, and the CSV's columns. */
export async function fleetCatalog(db: Kysely<Database>): Promise<z.input<typeof FleetCatalog>> {
  const models = await repo.models(db);
  return {
    models: models.map((m) => ({ id: m.id, name: m.name })).sort((a, b) => a.name.localeCompare(b.name)),
    colours: [...COLORS],
    holdReasons: [...HOLD_REASONS],
    csvColumns: [...FLEET_CSV_COLUMNS],
  };
}
