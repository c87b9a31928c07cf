import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CarStateResult } from '@ampere/domain/contract/verification';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import type { SimulatedFleet } from './simulated-fleet.ts';

const VinParams = z.object({ vin: z.string().regex(/^[A-HJ-NPR-Z0-9]{17}$/i, 'must be a 17-character VIN') });
const DriveBody = z
  .object({
    miles: z.number().min(0).max(10_000).optional(),
    battery_level: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').optional(),
  })
  .refine((b) => b.miles !== undefined || b.battery_level !== undefined, {
    message: 'Give miles, battery_level or both.',
  });

const SleepBody = z.object({ asleep: z.boolean() });
const SleepResult = z.object({ asleep: z.boolean() });

/**
 * Development only (CLOCK_CONTROL=on, with the simulated fleet): drive a car some miles and leave
 * its battery at a level, so that a person or a test can live through a trip's return in minutes
 * (decision 026). Refused in production like the test clock.
 */
export function simulatedFleetDevRoutes(app: FastifyInstance, fleet: SimulatedFleet): void {
  route(app, {
    method: 'POST',
    url: '/api/dev/vehicles/:vin/drive',
    tag: 'dev',
    summary:
      'Development only (CLOCK_CONTROL=on, simulated fleet): adds miles to the car’s odometer and sets its battery (a fraction 0–1)',
    params: VinParams,
    body: DriveBody,
    response: CarStateResult,
    handler: async ({ params, body }) => {
      const car = await fleet.driveByVin(params.vin, { miles: body.miles, battery_level: body.battery_level });
      if (!car) throw notFound(`No vehicle with VIN ${params.vin.toUpperCase()}.`, 'vin');
      return { car };
    },
  });
  route(app, {
    method: 'POST',
    url: '/api/dev/vehicles/:vin/sleep',
    tag: 'dev',
    summary:
      'Development only (CLOCK_CONTROL=on, simulated fleet): puts the car to sleep (it answers nothing, as a car asleep or out of signal) or wakes it',
    params: VinParams,
    body: SleepBody,
    response: SleepResult,
    handler: async ({ params, body }) => {
      const asleep = await fleet.setAsleep(params.vin, body.asleep);
      if (asleep === null) throw notFound(`No vehicle with VIN ${params.vin.toUpperCase()}.`, 'vin');
      return { asleep };
    },
  });
}
