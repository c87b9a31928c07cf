import type { CarState } from '@ampere/domain/contract/verification';

/**
 * Reaching a car (decision 023): lock, unlock, and read its lock state, odometer, battery and
 * position.
 * Smartcar when configured, else the built-in simulated fleet. Who may send a command is ours to
 * decide (the digital key); this only carries it to the car.
 */
export interface VehicleAccess {
  readonly kind: 'smartcar' | 'simulated';
  state(car: CarRef): Promise<CarState>;
  command(car: CarRef, command: 'lock' | 'unlock'): Promise<CarState>;
  /** Where the car is now (decision 096): the console shows it to staff helping a renter. */
  position(car: CarRef): Promise<CarPosition>;
}

export interface CarPosition {
  latitude: number;
  longitude: number;
  /** When the car reported it (ISO 8601). */
  read_at: string;
}

export interface CarRef {
  id: number;
  vin: string;
  /** The odometer we know (miles), for a car the provider has not reported yet. */
  odometer: number;
}

/** The car could not be reached or refused (asleep, offline, a provider fault): try again shortly. */
export class CarUnreachableError extends Error {}
