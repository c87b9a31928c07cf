import { z } from 'zod';
import type { CarState } from '@ampere/domain/contract/verification';
import type { Clock } from '../../clock.ts';
import { type CarPosition, type CarRef, CarUnreachableError, type VehicleAccess } from './provider.ts';

export type Fetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{ status: number; text(): Promise<string> }>;

export interface SmartcarConfig {
  /** An access token for the fleet's Smartcar connection (kept fresh by the operator's token job). */
  accessToken: string;
  baseUrl: string;
}

const KM_PER_MILE = 1.609344;

const VehicleList = z.object({ vehicles: z.array(z.string()) });
const Vin = z.object({ vin: z.string() });
const Security = z.object({ isLocked: z.boolean() });
const Odometer = z.object({ distance: z.number() });
const Battery = z.object({ percentRemaining: z.number().min(0).max(1) });
const Location = z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) });

/**
 * Smartcar's vehicle API: bearer token; GET /vehicles lists the connected vehicle ids, GET
 * /vehicles/{id}/vin names each; POST /vehicles/{id}/security { action: 'LOCK' | 'UNLOCK' };
 * GET /vehicles/{id}/security (isLocked), /odometer (kilometres) and /battery (percentRemaining,
 * a fraction), /location (latitude, longitude). A vehicle's id is found by its vin once and kept for the process.
 */
export class SmartcarAccess implements VehicleAccess {
  readonly kind = 'smartcar' as const;
  private ids: Map<string, string> | undefined;

  constructor(
    private readonly config: SmartcarConfig,
    private readonly clock: Clock,
    private readonly fetch: Fetch = globalThis.fetch as unknown as Fetch,
  ) {}

  private async call<T>(method: string, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    let res: { status: number; text(): Promise<string> };
    try {
      res = await this.fetch(`${this.config.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.config.accessToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new CarUnreachableError(
        `The connected-car service could not be reached: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const text = await res.text();
    if (res.status < 200 || res.status >= 300) {
      let description = text.slice(0, 200);
      try {
        const e = JSON.parse(text) as { code?: string; description?: string };
        description = [e.code, e.description].filter(Boolean).join(': ') || description;
      } catch {
        // keep the raw text
      }
      throw new CarUnreachableError(`The car did not answer ${method} ${path} (HTTP ${res.status}): ${description}`);
    }
    const parsed = schema.safeParse(JSON.parse(text));
    if (!parsed.success)
      throw new CarUnreachableError(`The connected-car service answered ${method} ${path} in an unexpected shape.`);
    return parsed.data;
  }

  private async vehicleId(car: CarRef): Promise<string> {
    if (!this.ids) {
      const { vehicles } = await this.call('GET', '/vehicles', VehicleList);
      const ids = new Map<string, string>();
      for (const id of vehicles)
        ids.set((await this.call('GET', `/vehicles/${encodeURIComponent(id)}/vin`, Vin)).vin, id);
      this.ids = ids;
    }
    const id = this.ids.get(car.vin);
    if (!id) throw new CarUnreachableError(`The car ${car.vin} is not connected to the fleet account.`);
    return id;
  }

  async state(car: CarRef): Promise<CarState> {
    const id = encodeURIComponent(await this.vehicleId(car));
    const [security, odometer, battery] = await Promise.all([
      this.call('GET', `/vehicles/${id}/security`, Security),
      this.call('GET', `/vehicles/${id}/odometer`, Odometer),
      this.call('GET', `/vehicles/${id}/battery`, Battery),
    ]);
    return {
      locked: security.isLocked,
      odometer_miles: Math.round((odometer.distance / KM_PER_MILE) * 10) / 10,
      battery_level: battery.percentRemaining,
      updated_at: this.clock().toISOString(),
    };
  }

  async position(car: CarRef): Promise<CarPosition> {
    const id = encodeURIComponent(await this.vehicleId(car));
    const at = await this.call('GET', `/vehicles/${id}/location`, Location);
    return { latitude: at.latitude, longitude: at.longitude, read_at: this.clock().toISOString() };
  }

  async command(car: CarRef, command: 'lock' | 'unlock'): Promise<CarState> {
    const id = encodeURIComponent(await this.vehicleId(car));
    await this.call('POST', `/vehicles/${id}/security`, z.unknown(), {
      action: command === 'lock' ? 'LOCK' : 'UNLOCK',
    });
    return this.state(car);
  }
}
