import { describe, expect, it } from 'vitest';
import { CarUnreachableError } from './provider.ts';
import { SimulatedFleet } from './simulated-fleet.ts';
import { type Fetch, SmartcarAccess } from './smartcar.ts';

const NOW = new Date('2026-11-22T15:00:00Z');
const CAR = { id: 7, vin: '5YJ3E1EA7KF000001', odometer: 12_000 };

function fakeSmartcar(over: Record<string, { status: number; body: unknown }> = {}) {
  const calls: { method: string; path: string; headers: Record<string, string>; body?: string }[] = [];
  const answers: Record<string, { status: number; body: unknown }> = {
    'GET /vehicles': { status: 200, body: { vehicles: ['veh-a', 'veh-b'], paging: { count: 2, offset: 0 } } },
    'GET /vehicles/veh-a/vin': { status: 200, body: { vin: 'OTHERVIN000000000' } },
    'GET /vehicles/veh-b/vin': { status: 200, body: { vin: CAR.vin } },
    'GET /vehicles/veh-b/security': { status: 200, body: { isLocked: true } },
    'GET /vehicles/veh-b/odometer': { status: 200, body: { distance: 20_000 } },
    'GET /vehicles/veh-b/battery': { status: 200, body: { percentRemaining: 0.82, range: 300 } },
    'GET /vehicles/veh-b/location': { status: 200, body: { latitude: 36.1627, longitude: -86.7816 } },
    'POST /vehicles/veh-b/security': {
      status: 200,
      body: { status: 'success', message: 'Successfully sent request to vehicle' },
    },
    ...over,
  };
  const fetch: Fetch = async (url, init) => {
    const path = new URL(url).pathname.replace(/^\/v2\.0/, '');
    calls.push({ method: init.method, path, headers: init.headers, body: init.body });
    const a = answers[`${init.method} ${path}`] ?? {
      status: 404,
      body: { type: 'RESOURCE_NOT_FOUND', description: 'none' },
    };
    return { status: a.status, text: async () => JSON.stringify(a.body) };
  };
  return { fetch, calls };
}

describe('Smartcar vehicle access', () => {
  it('finds the car by vin, and reads its lock, odometer (in miles) and battery', async () => {
    const { fetch, calls } = fakeSmartcar();
    const access = new SmartcarAccess(
      { accessToken: 'sc-token', baseUrl: 'https://api.smartcar.test/v2.0' },
      () => NOW,
      fetch,
    );
    expect(await access.state(CAR)).toEqual({
      locked: true,
      odometer_miles: 12427.4,
      battery_level: 0.82,
      updated_at: NOW.toISOString(),
    });
    expect(calls[0]!.headers.authorization).toBe('Bearer sc-token');
  });

  it('sends LOCK and UNLOCK to the car’s security endpoint', async () => {
    const { fetch, calls } = fakeSmartcar();
    const access = new SmartcarAccess(
      { accessToken: 't', baseUrl: 'https://api.smartcar.test/v2.0' },
      () => NOW,
      fetch,
    );
    await access.command(CAR, 'unlock');
    const sent = calls.find((c) => c.method === 'POST')!;
    expect(sent.path).toBe('/vehicles/veh-b/security');
    expect(JSON.parse(sent.body!)).toEqual({ action: 'UNLOCK' });
  });

  it('a sleeping car, an unknown vin or no network is a CarUnreachableError naming the cause', async () => {
    const asleep = fakeSmartcar({
      'POST /vehicles/veh-b/security': {
        status: 409,
        body: { type: 'VEHICLE_STATE', code: 'ASLEEP', description: 'The vehicle is asleep.' },
      },
    });
    await expect(
      new SmartcarAccess({ accessToken: 't', baseUrl: 'https://x.test/v2.0' }, () => NOW, asleep.fetch).command(
        CAR,
        'lock',
      ),
    ).rejects.toThrow(/ASLEEP/);
    await expect(
      new SmartcarAccess({ accessToken: 't', baseUrl: 'https://x.test/v2.0' }, () => NOW, fakeSmartcar().fetch).state({
        ...CAR,
        vin: 'NOTCONNECTED00000',
      }),
    ).rejects.toThrow(CarUnreachableError);
    const down: Fetch = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(
      new SmartcarAccess({ accessToken: 't', baseUrl: 'https://x.test/v2.0' }, () => NOW, down).state(CAR),
    ).rejects.toThrow(/could not be reached/);
  });

  it('reads where the car is from its location endpoint', async () => {
    const { fetch, calls } = fakeSmartcar();
    const access = new SmartcarAccess({ accessToken: 't', baseUrl: 'https://x.test/v2.0' }, () => NOW, fetch);
    expect(await access.position(CAR)).toEqual({
      latitude: 36.1627,
      longitude: -86.7816,
      read_at: NOW.toISOString(),
    });
    expect(calls.at(-1)!.path).toBe('/vehicles/veh-b/location');
  });

  it('a simulated car stands within about 300 m of its lot, the same until it is driven', () => {
    const d = SimulatedFleet.drift(CAR.vin, 12_000);
    expect(Math.abs(d.lat)).toBeLessThanOrEqual(SimulatedFleet.DRIFT_DEGREES);
    expect(Math.abs(d.lng)).toBeLessThanOrEqual(SimulatedFleet.DRIFT_DEGREES);
    expect(SimulatedFleet.drift(CAR.vin, 12_000)).toEqual(d);
    expect(SimulatedFleet.drift(CAR.vin, 12_040)).not.toEqual(d);
  });

  it('the simulated fleet starts each car charged between 70 and 100 percent, the same for the same vin', () => {
    const a = SimulatedFleet.startingBattery(CAR.vin);
    expect(a).toBeGreaterThanOrEqual(0.7);
    expect(a).toBeLessThanOrEqual(1);
    expect(SimulatedFleet.startingBattery(CAR.vin)).toBe(a);
  });
});
