import type { CarState } from '@ampere/domain/contract/verification';

/**
 * Reaching a car (decision 023): lock, unlock, and read its lock state, odometer and battery.
 * Smartcar when configured, else the built-in simulated fleet. Who may send a command is ours to
 * decide (the digital key); this only carries it to the car.
 */
export interface VehicleAccess {
  readonly kind: 'smartcar' | 'simulated';
  state(car: CarRef): Promise<CarState>;
  command(car: CarRef, command: 'lock' | 'unlock'): Promise<CarState>;
}

export interface CarRef {
  id: number;
  vin: string;
  /** The odometer we know (miles), for a car the provider has not reported yet. */
  odometer: number;
}

/** The car could not be reached or refused (asleep, offline, a provider fault): try again shortly. */
export class CarUnreachableError extends Error {}
