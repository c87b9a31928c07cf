import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_VIEWS } from '@ampere/domain/constants';
import { seedDemo } from '../src/seed/seed.ts';
import { vinCheckDigit } from '../src/seed/vin.ts';
import { optionId, reserve } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';

describe.each(engines())('catalog API on %s', (engine) => {
  let ctx: TestContext;
  const get = async (url: string) => {
    const res = await ctx.app.inject({ url });
    return { status: res.statusCode, body: res.json() };
  };
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx?.close());

  describe('search options', () => {
    it('autocomplete matches case-insensitively, starts-with first, at most 5 by default', async () => {
      const { body } = await get('/api/v1/search/autocomplete?query=NASH');
      expect(body.options[0].query).toBe('Nashville, TN');
      expect(body.options.length).toBeLessThanOrEqual(5);
      expect(body.options.every((o: { query: string }) => o.query.toLowerCase().includes('nash'))).toBe(true);
      expect((await get('/api/v1/search/autocomplete?query=a&limit=2')).body.options).toHaveLength(2);
    });
    it('autocomplete with no text returns the city list', async () => {
      const { body } = await get('/api/v1/search/autocomplete');
      expect(body.options.every((o: { type: string }) => o.type === 'CITY')).toBe(true);
    });
    it.each(['limit=0', 'limit=abc', 'limit=500'])('autocomplete refuses %s naming limit', async (q) => {
      const { status, body } = await get(`/api/v1/search/autocomplete?query=a&${q}`);
      expect(status).toBe(400);
      expect(body.field).toBe('limit');
    });
    it('lists the six demo cities with their IANA zones', async () => {
      const { body } = await get('/api/v1/search/cities');
      const zones = Object.fromEntries(
        body.options.map((o: { query: string; timezone: string }) => [o.query, o.timezone]),
      );
      expect(zones).toEqual({
        'Nashville, TN': 'America/Chicago',
        'St Louis, MO': 'America/Chicago',
        'Dallas, TX': 'America/Chicago',
        'Austin, TX': 'America/Chicago',
        'Phoenix, AZ': 'America/Phoenix',
        'Las Vegas, NV': 'America/Los_Angeles',
      });
    });
    it('reads one option; unknown is 404 and malformed 400', async () => {
      const id = await optionId(ctx.handle.db, 'AIRPORT', 'Phoenix Sky Harbor International Airport (PHX)');
      expect((await get(`/api/v1/search/${id}`)).body).toMatchObject({
        id,
        type: 'AIRPORT',
        timezone: 'America/Phoenix',
      });
      expect((await get('/api/v1/search/999999')).status).toBe(404);
      expect((await get('/api/v1/search/abc')).body).toMatchObject({ statusCode: 400, field: 'id' });
    });
    it('landmarks near a city are in its region, nearest first', async () => {
      const id = await optionId(ctx.handle.db, 'CITY', 'St Louis, MO');
      const { body } = await get(`/api/v1/search/landmarks-near/${id}`);
      const names = body.options.map((o: { query: string }) => o.query);
      expect(names).toContain('Gateway Arch');
      expect(names).toContain('St. Louis Lambert International Airport (STL)');
      expect(names.indexOf('Busch Stadium')).toBeLessThan(
        names.indexOf('St. Louis Lambert International Airport (STL)'),
      );
      expect(body.options.every((o: { type: string }) => ['LANDMARK', 'AIRPORT'].includes(o.type))).toBe(true);
    });
  });

  describe('locations', () => {
    it('searches by text within a region and pages the list', async () => {
      const austin = await get('/api/v1/search/autocomplete?query=Austin,%20TX');
      const region = austin.body.options[0].region_id;
      const found = await get(`/api/v1/locations/search?query=airport&region_id=${region}`);
      expect(found.body.locations.map((l: { name: string }) => l.name)).toEqual(['Austin Airport (AUS)']);
      const page1 = await get('/api/v1/locations?size=4&page=1');
      const page2 = await get('/api/v1/locations?size=4&page=2');
      expect(page1.body.locations).toHaveLength(4);
      expect(page1.body.total).toBe(18);
      expect(page2.body.locations[0].id).not.toBe(page1.body.locations[0].id);
      expect((await get('/api/v1/locations?page=0')).body.field).toBe('page');
    });
    it('cities come nearest first from given coordinates; half a coordinate pair is refused', async () => {
      const { body } = await get('/api/v1/locations/cities?latitude=33.5&longitude=-112.1');
      expect(body.cities[0].name).toBe('Phoenix');
      expect(body.cities[0].distance_miles).toBeLessThan(10);
      expect((await get('/api/v1/locations/cities?latitude=33.5')).body).toMatchObject({
        statusCode: 400,
        field: 'longitude',
      });
      expect((await get('/api/v1/locations/cities?latitude=200&longitude=0')).body).toMatchObject({
        statusCode: 400,
        field: 'latitude',
      });
    });
  });

  describe('vehicles', () => {
    it('reads a car by VIN with its location, every photo view, its holds and availability by local date', async () => {
      const nashville = await optionId(ctx.handle.db, 'CITY', 'Nashville, TN');
      const free = await get(`/api/v1/vehicles/search/${nashville}?pickupDate=2026-12-05&returnDate=2026-12-15`);
      const car = { vin: free.body.items[0].vin as string };
      // 23:00Z on 9 December is 17:00 in Nashville and 20:00Z on the 12th is 14:00: the 9th and the
      // 12th keep some times (partly taken, still pickable); the 10th and 11th have none left.
      await reserve(ctx.handle.db, car.vin, '2026-12-09T23:00:00Z', '2026-12-12T20:00:00Z');
      const { status, body } = await get(`/api/v1/vehicles/${car.vin.toLowerCase()}`);
      expect(status).toBe(200);
      expect(body.vin).toBe(car.vin);
      expect(body.images.map((i: { view: string }) => i.view)).toEqual(
        expect.arrayContaining(['MONEYSHOT', 'L_SIDE', 'RF_INTERIOR']),
      );
      expect(body.location.pickup_instructions_html).toContain('<p>');
      expect(body.availability['2026-12-08']).toBe(true);
      expect(body.availability['2026-12-09']).toBe(true);
      expect(body.availability['2026-12-10']).toBe(false);
      expect(body.availability['2026-12-11']).toBe(false);
      expect(body.availability['2026-12-12']).toBe(true);
      // The hold runs to the return plus the 60-minute turnaround.
      expect(body.busy).toContainEqual({ from: '2026-12-09T23:00:00.000Z', until: '2026-12-12T21:00:00.000Z' });
      expect(Object.keys(body.availability)).toHaveLength(394);
    });
    it('an unknown VIN is 404 and a malformed one 400', async () => {
      expect((await get('/api/v1/vehicles/5YJ3E1EA0NF999999')).status).toBe(404);
      expect((await get('/api/v1/vehicles/NOTAVIN')).body).toMatchObject({ statusCode: 400, field: 'id' });
    });
    it('lists the six models with their photos', async () => {
      const { body } = await get('/api/v1/vehicle_models');
      expect(body.models.map((m: { name: string }) => m.name)).toEqual([
        'Model 3',
        'Model 3 Long Range',
        'Model Y',
        'Model Y Long Range',
        'Model S',
        'Model X',
      ]);
      const photo = await ctx.app.inject({ url: body.models[0].public_image_link });
      expect(photo.statusCode).toBe(200);
      expect(photo.headers['content-type']).toContain('image/svg+xml');
    });
  });

  describe('add-ons', () => {
    const post = async (payload: unknown, raw?: string) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/addons/related',
        ...(raw ? { payload: raw, headers: { 'content-type': 'application/json' } } : { payload: payload as object }),
      });
      return { status: res.statusCode, body: res.json() };
    };
    it('offers collision protection, unlimited miles and prepaid charging with amounts', async () => {
      const car = await ctx.handle.db.selectFrom('vehicles').select(['vin']).orderBy('id').executeTakeFirstOrThrow();
      const { status, body } = await post({
        vehicleVin: car.vin,
        pickupAt: '2026-12-01T16:00:00Z',
        returnAt: '2026-12-08T16:00:00Z',
      });
      expect(status).toBe(200);
      expect(body.addons.map((a: { type: string; name: string }) => [a.type, a.name])).toEqual([
        ['DAMAGE_WAIVER', 'Collision Protection'],
        ['UNLIMITED_MILES', 'Unlimited Miles'],
        ['PREPAID_EV_CHARGING', 'Prepaid Charging'],
      ]);
      expect(body.addons.map((a: { charge_frequency: string }) => a.charge_frequency)).toEqual([
        'DAY',
        'DAY',
        'ONE_TIME',
      ]);
      expect(body.addons.every((a: { amount: number }) => Number.isInteger(a.amount) && a.amount > 0)).toBe(true);
    });
    it('refuses an unknown VIN, a return before pickup, a missing field and bad JSON', async () => {
      expect(
        (
          await post({
            vehicleVin: '5YJ3E1EA0NF999999',
            pickupAt: '2026-12-01T16:00:00Z',
            returnAt: '2026-12-08T16:00:00Z',
          })
        ).status,
      ).toBe(404);
      const car = await ctx.handle.db.selectFrom('vehicles').select(['vin']).orderBy('id').executeTakeFirstOrThrow();
      expect(
        (await post({ vehicleVin: car.vin, pickupAt: '2026-12-08T16:00:00Z', returnAt: '2026-12-01T16:00:00Z' })).body,
      ).toMatchObject({ statusCode: 422, field: 'returnAt' });
      expect((await post({ vehicleVin: car.vin, pickupAt: '2026-12-08T16:00:00Z' })).body).toMatchObject({
        statusCode: 400,
        field: 'returnAt',
        message: 'returnAt is required',
      });
      expect((await post(null, '{"vehicleVin":')).status).toBe(400);
    });
  });

  describe('the database refuses double bookings', () => {
    it('rejects overlapping active reservations of one car, and one starting within the turnaround; accepts one starting a turnaround after a return', async () => {
      const car = await ctx.handle.db
        .selectFrom('vehicles')
        .select(['vin'])
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      await reserve(ctx.handle.db, car.vin, '2027-02-01T16:00:00Z', '2027-02-05T16:00:00Z');
      await expect(
        reserve(ctx.handle.db, car.vin, '2027-02-04T16:00:00Z', '2027-02-06T16:00:00Z', 'Started'),
      ).rejects.toMatchObject({ code: '23P01' });
      await expect(
        reserve(ctx.handle.db, car.vin, '2027-02-05T16:59:00Z', '2027-02-07T16:00:00Z'),
      ).rejects.toMatchObject({ code: '23P01' });
      await expect(
        reserve(ctx.handle.db, car.vin, '2027-02-05T17:00:00Z', '2027-02-07T16:00:00Z'),
      ).resolves.toBeTruthy();
      await expect(
        reserve(ctx.handle.db, car.vin, '2027-02-02T16:00:00Z', '2027-02-03T16:00:00Z', 'Canceled'),
      ).resolves.toBeTruthy();
    });
    it('rejects a reservation whose return is not after its pickup', async () => {
      const car = await ctx.handle.db
        .selectFrom('vehicles')
        .select(['vin'])
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      await expect(
        reserve(ctx.handle.db, car.vin, '2027-03-01T16:00:00Z', '2027-03-01T16:00:00Z'),
      ).rejects.toMatchObject({ code: '23514' });
    });
  });

  describe('the demo fleet', () => {
    it('has every search option type, 25+ cars per city in five colours with valid VINs, some not self-serve, some holds', async () => {
      const db = ctx.handle.db;
      const types = await db.selectFrom('search_options').select('type').distinct().execute();
      expect(types.map((t) => t.type).sort()).toEqual(['AIRPORT', 'CITY', 'LANDMARK', 'LOT', 'STATE', 'ZIP_CODE']);
      const perCity = await db
        .selectFrom('vehicles')
        .innerJoin('locations', 'locations.id', 'vehicles.location_id')
        .select([
          'locations.city',
          sql<number>`count(*)::int`.as('n'),
          sql<number>`count(distinct vehicles.color)::int`.as('colors'),
        ])
        .groupBy('locations.city')
        .execute();
      expect(perCity).toHaveLength(6);
      for (const c of perCity) {
        expect(c.n).toBeGreaterThanOrEqual(25);
        expect(c.colors).toBe(5);
      }
      const vins = await db.selectFrom('vehicles').select(['vin', 'is_self_serve_booking_allowed']).execute();
      for (const { vin } of vins) {
        expect(vin).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
        expect(vin[8]).toBe(vinCheckDigit(vin));
      }
      expect(vins.some((v) => !v.is_self_serve_booking_allowed)).toBe(true);
      const holds = await db
        .selectFrom('reservations')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      expect(holds.n).toBeGreaterThan(0);
    });
    it('seeding again adds nothing', async () => {
      const count = async () =>
        (
          await ctx.handle.db
            .selectFrom('vehicles')
            .select(sql<number>`count(*)::int`.as('n'))
            .executeTakeFirstOrThrow()
        ).n;
      const before = await count();
      expect(await seedDemo(ctx.handle.db, ctx.clock.now)).toEqual({ seeded: false });
      expect(await count()).toBe(before);
    });
  });

  describe('the rest of the surface', () => {
    it('serves generated photos and 404s unknown ones', async () => {
      const photo = await ctx.app.inject({ url: '/media/vehicles/model-y/blue/l_side.svg' });
      expect(photo.statusCode).toBe(200);
      expect(photo.headers['content-type']).toBe('image/svg+xml');
      expect(photo.body).toContain('aria-label="Model Y, blue, left side"');
      for (const url of [
        '/media/vehicles/model-y/purple/l_side.svg',
        '/media/vehicles/model-z/blue/l_side.svg',
        '/media/vehicles/model-y/blue/trunk.svg',
        '/media/vehicles/model-y/blue/l_side.png',
        '/media/vehicles/model-y/BLUE/l_side.svg',
      ]) {
        const res = await ctx.app.inject({ url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toMatchObject({ code: 'NOT_FOUND' });
      }
    });
    it('every photo a car lists is served, one per spec view, each a different picture', async () => {
      const nashville = await optionId(ctx.handle.db, 'CITY', 'Nashville, TN');
      const vin = (await get(`/api/v1/vehicles/search/${nashville}?pickupDate=2026-12-05&returnDate=2026-12-08`)).body
        .items[0].vin as string;
      const { body } = await get(`/api/v1/vehicles/${vin}`);
      expect(body.images.map((i: { view: string }) => i.view)).toEqual([...IMAGE_VIEWS]);
      const bodies = await Promise.all(
        body.images.map(async (i: { image_url: string }) => (await ctx.app.inject({ url: i.image_url })).body),
      );
      expect(bodies.every((b) => b.startsWith('<svg'))).toBe(true);
      expect(new Set(bodies.map((b) => b.replace(/ aria-label="[^"]*"/, ''))).size).toBe(IMAGE_VIEWS.length);
    });
    it('documents every /api/v1 route in the OpenAPI document', async () => {
      const { body } = await get('/api/openapi.json');
      expect(Object.keys(body.paths)).toEqual(
        expect.arrayContaining([
          '/api/v1/search/autocomplete',
          '/api/v1/search/cities',
          '/api/v1/search/{id}',
          '/api/v1/search/landmarks-near/{id}',
          '/api/v1/locations/search',
          '/api/v1/locations',
          '/api/v1/locations/cities',
          '/api/v1/vehicles/search/{searchQueryId}',
          '/api/v1/vehicles/{id}',
          '/api/v1/vehicle_models',
          '/api/v1/addons/related',
        ]),
      );
    });
    it('answers health checks and unknown API paths with JSON 404', async () => {
      expect((await ctx.app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect(await get('/api/v1/nothing-here')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    });
  });
});
