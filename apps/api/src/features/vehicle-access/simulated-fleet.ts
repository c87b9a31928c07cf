import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CarState } from '@ampere/domain/contract/verification';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { type CarPosition, type CarRef, CarUnreachableError, type VehicleAccess } from './provider.ts';

/**
 * The built-in fleet: each car's lock state, odometer and battery live in simulated_cars, made on
 * first contact — locked, at the vehicle's odometer, and charged to between 70 and 100 percent
 * (fixed by the vin, so a car always starts the same). Commands change the state at once, as a car
 * that is awake would; locking a locked car is fine, as on a real car. A car is where its lot is,
 * give or take a few hundred metres that move with its odometer (parked elsewhere after a drive).
 * In development a car can be put to sleep (`setAsleep`): it then answers nothing, as a real car
 * asleep or out of signal does, so the failure paths can be tried by hand and in browser tests.
 */
export class SimulatedFleet implements VehicleAccess {
  readonly kind = 'simulated' as const;

  /** The cars asleep (by vehicle id): in memory, this process only; development only. */
  private readonly asleep = new Set<number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** Development only: puts the car named by its VIN to sleep or wakes it; null when there is no such car. */
  async setAsleep(vin: string, asleep: boolean): Promise<boolean | null> {
    const car = await this.db
      .selectFrom('vehicles')
      .select('id')
      .where('vin', '=', vin.toUpperCase())
      .executeTakeFirst();
    if (!car) return null;
    if (asleep) this.asleep.add(car.id);
    else this.asleep.delete(car.id);
    return asleep;
  }

  private awake(car: CarRef): void {
    if (this.asleep.has(car.id))
      throw new CarUnreachableError('The car is asleep and did not answer (VEHICLE_STATE: ASLEEP).');
  }

  static startingBattery(vin: string): number {
    const n = createHash('sha256').update(vin).digest().readUInt16BE(0);
    return Math.round((0.7 + (n / 0xffff) * 0.3) * 1000) / 1000;
  }

  private async row(car: CarRef) {
    await this.db
      .insertInto('simulated_cars')
      .values({
        vehicle_id: car.id,
        locked: true,
        odometer_miles: car.odometer,
        battery_level: SimulatedFleet.startingBattery(car.vin),
        updated_at: this.clock(),
      })
      .onConflict((oc) => oc.column('vehicle_id').doNothing())
      .execute();
    return this.db.selectFrom('simulated_cars').selectAll().where('vehicle_id', '=', car.id).executeTakeFirstOrThrow();
  }

  async state(car: CarRef): Promise<CarState> {
    this.awake(car);
    return toState(await this.row(car));
  }

  /** The same for a car named by its VIN; null when there is no such car. */
  async driveByVin(
    vin: string,
    change: { miles?: number | undefined; battery_level?: number | undefined },
  ): Promise<CarState | null> {
    const car = await this.db
      .selectFrom('vehicles')
      .select(['id', 'vin', 'odometer'])
      .where('vin', '=', vin.toUpperCase())
      .executeTakeFirst();
    return car ? this.drive(car, change) : null;
  }

  /** Development only (the dev control): drives the car some miles and sets its battery, as a renter's trip would. */
  async drive(
    car: CarRef,
    change: { miles?: number | undefined; battery_level?: number | undefined },
  ): Promise<CarState> {
    await this.row(car);
    const row = await this.db
      .updateTable('simulated_cars')
      .set((eb) => ({
        odometer_miles: eb('odometer_miles', '+', change.miles ?? 0),
        ...(change.battery_level === undefined ? {} : { battery_level: change.battery_level }),
        updated_at: this.clock(),
      }))
      .where('vehicle_id', '=', car.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toState(row);
  }

  /** How far (degrees) a car may stand from its lot's point: about 300 metres. */
  static readonly DRIFT_DEGREES = 0.003;

  /** The car's offset from its lot, fixed by its vin and odometer: the same reading until it is driven. */
  static drift(vin: string, odometerMiles: number): { lat: number; lng: number } {
    const h = createHash('sha256').update(`${vin}:${odometerMiles}`).digest();
    const unit = (n: number) => (n / 0xffff) * 2 - 1;
    return {
      lat: unit(h.readUInt16BE(0)) * SimulatedFleet.DRIFT_DEGREES,
      lng: unit(h.readUInt16BE(2)) * SimulatedFleet.DRIFT_DEGREES,
    };
  }

  async position(car: CarRef): Promise<CarPosition> {
    this.awake(car);
    const state = await this.row(car);
    const lot = await this.db
      .selectFrom('vehicles as v')
      .innerJoin('locations as l', 'l.id', 'v.location_id')
      .select(['l.latitude', 'l.longitude'])
      .where('v.id', '=', car.id)
      .executeTakeFirstOrThrow();
    const d = SimulatedFleet.drift(car.vin, Number(state.odometer_miles));
    const round = (n: number) => Math.round(n * 1e6) / 1e6;
    return {
      latitude: round(Number(lot.latitude) + d.lat),
      longitude: round(Number(lot.longitude) + d.lng),
      read_at: this.clock().toISOString(),
    };
  }

  async command(car: CarRef, command: 'lock' | 'unlock'): Promise<CarState> {
    this.awake(car);
    await this.row(car);
    const row = await this.db
      .updateTable('simulated_cars')
      .set({ locked: command === 'lock', updated_at: this.clock() })
      .where('vehicle_id', '=', car.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toState(row);
  }
}

function toState(row: { locked: boolean; odometer_miles: number; battery_level: number; updated_at: Date }): CarState {
  return {
    locked: row.locked,
    odometer_miles: Number(row.odometer_miles),
    battery_level: Number(row.battery_level),
    updated_at: row.updated_at.toISOString(),
  };
}
