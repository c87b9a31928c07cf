import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { blockedUntil } from '@ampere/domain/availability';
import { VehicleSearchResult } from '@ampere/domain/contract/catalog';
import { reserve, optionId } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';

interface Item {
  vin: string;
  color: string;
  rack_rate: number;
  model: { name: string };
  location: { city: string; timezone: string; name: string; street: string };
  distance_miles: number;
  price: { days: number; rack_total: number; tax: number; total: number };
}

describe.each(engines())('vehicle search on %s', (engine) => {
  let ctx: TestContext;
  let nashville: number;
  let phoenix: number;
  let texas: number;
  const search = async (id: number, query: Record<string, string>) => {
    const res = await ctx.app.inject({ url: `/api/v1/vehicles/search/${id}`, query: { limit: '100', ...query } });
    return { status: res.statusCode, body: res.json() };
  };
  /** Moves a hold's return, as every writer of return_at must: with blocked_until (decision 015). */
  const moveReturn = (id: string, at: string) =>
    ctx.handle.db
      .updateTable('reservations')
      .set({ return_at: new Date(at), blocked_until: blockedUntil(new Date(at)) })
      .where('id', '=', id)
      .execute();
  const week = { pickupDate: '2026-12-01', returnDate: '2026-12-08', pickupTime: '10:00', returnTime: '10:00' };

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    nashville = await optionId(ctx.handle.db, 'CITY', 'Nashville, TN');
    phoenix = await optionId(ctx.handle.db, 'CITY', 'Phoenix, AZ');
    texas = await optionId(ctx.handle.db, 'STATE', 'Texas');
  });
  afterAll(() => ctx?.close());

  it('answers exactly the documented shape: every field the schema lists, and nothing else', async () => {
    const res = await ctx.app.inject({ url: `/api/v1/vehicles/search/${nashville}`, query: { ...week, limit: '5' } });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    const strict = (schema: z.ZodType): z.ZodType =>
      schema instanceof z.ZodObject
        ? z.strictObject(Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, strict(v as z.ZodType)])))
        : schema instanceof z.ZodArray
          ? z.array(strict(schema.element as z.ZodType))
          : schema;
    expect(() => strict(VehicleSearchResult).parse(body)).not.toThrow();
    expect(body.items).toHaveLength(5);
    expect(body.total).toBeGreaterThan(5);
  });

  it('lists only cars free for the whole period; a hold returning one turnaround before the pickup keeps the car, one returning closer hides it', async () => {
    const before = (await search(nashville, week)).body.items as Item[];
    const [busy, adjacent, tooClose] = before;
    // Nashville is UTC-6 in December: 10:00 local is 16:00Z; the turnaround is 60 minutes.
    await reserve(ctx.handle.db, busy!.vin, '2026-12-05T16:00:00Z', '2026-12-06T16:00:00Z');
    await reserve(ctx.handle.db, adjacent!.vin, '2026-11-28T16:00:00Z', '2026-12-01T15:00:00Z');
    await reserve(ctx.handle.db, tooClose!.vin, '2026-11-28T16:00:00Z', '2026-12-01T15:15:00Z');
    const after = (await search(nashville, week)).body.items as Item[];
    const vins = after.map((i) => i.vin);
    expect(vins).not.toContain(busy!.vin);
    expect(vins).not.toContain(tooClose!.vin);
    expect(vins).toContain(adjacent!.vin);
    expect(after.length).toBe(before.length - 2);
  });

  it('a canceled reservation does not hide the car', async () => {
    const [car] = (await search(nashville, { ...week, pickupDate: '2026-12-10', returnDate: '2026-12-12' })).body
      .items as Item[];
    await reserve(ctx.handle.db, car!.vin, '2026-12-10T16:00:00Z', '2026-12-12T16:00:00Z', 'Canceled');
    const vins = (
      (await search(nashville, { ...week, pickupDate: '2026-12-10', returnDate: '2026-12-12' })).body.items as Item[]
    ).map((i) => i.vin);
    expect(vins).toContain(car!.vin);
  });

  it('a hold canceled or cut short later frees the car again, and moving it back hides it', async () => {
    const dates = { ...week, pickupDate: '2026-12-14', returnDate: '2026-12-16' };
    const vinsNow = async () => ((await search(nashville, dates)).body.items as Item[]).map((i) => i.vin);
    const [car] = (await search(nashville, dates)).body.items as Item[];
    const { id } = await reserve(ctx.handle.db, car!.vin, '2026-12-13T16:00:00Z', '2026-12-17T16:00:00Z');
    expect(await vinsNow()).not.toContain(car!.vin);
    // Ended early: the trip now returns before the searched pickup.
    await moveReturn(id, '2026-12-14T15:00:00Z');
    expect(await vinsNow()).toContain(car!.vin);
    await moveReturn(id, '2026-12-17T16:00:00Z');
    expect(await vinsNow()).not.toContain(car!.vin);
    await ctx.handle.db.updateTable('reservations').set({ status: 'Canceled' }).where('id', '=', id).execute();
    expect(await vinsNow()).toContain(car!.vin);
  });

  it('orders cars nearest first and prices each as rack × days + tax', async () => {
    const { body } = await search(nashville, week);
    const items = body.items as Item[];
    const distances = items.map((i) => i.distance_miles);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const i of items) {
      expect(i.price.days).toBe(7);
      expect(i.price.rack_total).toBe(i.rack_rate * 7);
      expect(i.price.tax).toBe(Math.round((i.rack_rate * 7 * 92_500) / 1_000_000));
      expect(i.price.total).toBe(i.price.rack_total + i.price.tax);
    }
    expect(body.total).toBe(items.length);
  });

  it('filters by model, variant and colour (lowercase accepted) and lists what is available', async () => {
    const all = (await search(nashville, week)).body;
    expect(all.filters.models).toEqual(['Model 3', 'Model S', 'Model X', 'Model Y']);
    expect(all.filters.colors.length).toBeGreaterThan(1);
    const y = (await search(nashville, { ...week, model: 'Model Y' })).body.items as Item[];
    expect(y.length).toBeGreaterThan(0);
    expect(y.every((i) => i.model.name === 'Model Y')).toBe(true);
    const lr = (await search(nashville, { ...week, model: 'Model Y Long Range' })).body.items as Item[];
    expect(lr.every((i) => i.model.name === 'Model Y Long Range')).toBe(true);
    // Spec 7: variant takes the Long Range chip's words; the older 'long-range' spelling still answers the same.
    const anyLr = (await search(nashville, { ...week, variant: 'Long Range' })).body.items as Item[];
    expect(anyLr.length).toBeGreaterThan(0);
    expect(anyLr.every((i) => i.model.name.endsWith('Long Range'))).toBe(true);
    const hyphened = (await search(nashville, { ...week, variant: 'long-range' })).body.items as Item[];
    expect(hyphened.map((i) => i.vin)).toEqual(anyLr.map((i) => i.vin));
    const standard = (await search(nashville, { ...week, variant: 'Standard' })).body.items as Item[];
    expect(standard.length).toBeGreaterThan(0);
    expect(standard.some((i) => i.model.name.endsWith('Long Range'))).toBe(false);
    const wrong = await search(nashville, { ...week, variant: 'Plaid' });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain("'Long Range' or 'Standard'");
    const red = (await search(nashville, { ...week, color: 'red' })).body.items as Item[];
    expect(red.every((i) => i.color === 'RED')).toBe(true);
  });

  it('pages results with limit and page', async () => {
    const first = (await search(nashville, { ...week, limit: '5', page: '1' })).body;
    const second = (await search(nashville, { ...week, limit: '5', page: '2' })).body;
    expect(first.items).toHaveLength(5);
    expect(second.items[0].vin).not.toBe(first.items[0].vin);
    expect(first.total).toBeGreaterThan(5);
  });

  it("each car names its lot and the lot's street, for the map's lot labels", async () => {
    const items = (await search(nashville, week)).body.items as Item[];
    expect(items.length).toBeGreaterThan(0);
    for (const i of items) {
      expect(i.location.name).not.toBe('');
      expect(i.location.street).toMatch(/^\d+ \S/);
    }
  });

  it('a state search covers every city in the state', async () => {
    const cities = new Set(((await search(texas, week)).body.items as Item[]).map((i) => i.location.city));
    expect(cities).toEqual(new Set(['Dallas', 'Austin']));
  });

  it('Phoenix has no daylight saving: 10:00 local is 17:00Z in summer and winter', async () => {
    for (const [date, end] of [
      ['2027-07-06', '2027-07-08'],
      ['2026-12-15', '2026-12-17'],
    ]) {
      const [car] = (
        await search(phoenix, { pickupDate: date!, returnDate: end!, pickupTime: '10:00', returnTime: '10:00' })
      ).body.items as Item[];
      expect(car!.location.timezone).toBe('America/Phoenix');
      // A hold returning at 16:00Z, one turnaround before 10:00 local (17:00Z), keeps the car; a minute later hides it.
      const { id } = await reserve(ctx.handle.db, car!.vin, `${date}T09:00:00Z`, `${date}T16:00:00Z`);
      let vins = (
        (await search(phoenix, { pickupDate: date!, returnDate: end!, pickupTime: '10:00', returnTime: '10:00' })).body
          .items as Item[]
      ).map((i) => i.vin);
      expect(vins).toContain(car!.vin);
      await moveReturn(id, `${date}T16:01:00Z`);
      vins = (
        (await search(phoenix, { pickupDate: date!, returnDate: end!, pickupTime: '10:00', returnTime: '10:00' })).body
          .items as Item[]
      ).map((i) => i.vin);
      expect(vins).not.toContain(car!.vin);
    }
  });

  it('a week across the spring daylight-saving change is 7 days and its ends are exact instants', async () => {
    const period = { pickupDate: '2027-03-10', returnDate: '2027-03-17', pickupTime: '10:00', returnTime: '10:00' };
    const [car] = (await search(nashville, period)).body.items as Item[];
    expect(car!.price.days).toBe(7);
    // Return at 10:00 CDT on 17 March is 15:00Z (the pickup was 16:00Z, CST): a hold may start one
    // turnaround later, at 16:00Z, and not a minute sooner.
    const { id } = await reserve(ctx.handle.db, car!.vin, '2027-03-17T16:00:00Z', '2027-03-18T15:00:00Z');
    expect(((await search(nashville, period)).body.items as Item[]).map((i) => i.vin)).toContain(car!.vin);
    await ctx.handle.db
      .updateTable('reservations')
      .set({ pickup_at: new Date('2027-03-17T15:59:00Z') })
      .where('id', '=', id)
      .execute();
    expect(((await search(nashville, period)).body.items as Item[]).map((i) => i.vin)).not.toContain(car!.vin);
  });

  it('a week across the autumn change is 7 days, not 8', async () => {
    const saved = ctx.clock.now;
    ctx.clock.now = new Date('2026-10-20T15:00:00Z');
    try {
      const { status, body } = await search(nashville, {
        pickupDate: '2026-10-29',
        returnDate: '2026-11-05',
        pickupTime: '10:00',
        returnTime: '10:00',
      });
      expect(status).toBe(200);
      expect(body.items[0].price.days).toBe(7);
    } finally {
      ctx.clock.now = saved;
    }
  });

  it.each([
    [{ pickupDate: '2026-12-1', returnDate: '2026-12-08' }, 400, 'pickupDate'],
    [{ pickupDate: '2026-12-01', returnDate: '2026-12-08', pickupTime: '25:00' }, 400, 'pickupTime'],
    [{ pickupDate: '2026-12-01' }, 400, 'returnDate'],
    [{ pickupDate: '2026-12-01', returnDate: '2026-12-08', color: 'purple' }, 400, 'color'],
    [{ pickupDate: '2026-12-01', returnDate: '2026-12-08', limit: '0' }, 400, 'limit'],
    [{ pickupDate: '2026-12-09', returnDate: '2026-12-08' }, 422, 'returnDate'],
    [{ pickupDate: '2026-12-01', returnDate: '2027-01-15' }, 422, 'returnDate'],
    [{ pickupDate: '2026-11-01', returnDate: '2026-11-05' }, 422, 'pickupDate'],
    [{ pickupDate: '2028-01-01', returnDate: '2028-01-05' }, 422, 'pickupDate'],
  ])('refuses %o with %i naming %s', async (query, status, field) => {
    const res = await search(nashville, query as Record<string, string>);
    expect(res.status).toBe(status);
    expect(res.body.field).toBe(field);
    expect(res.body.message).toMatch(
      new RegExp(field === 'returnDate' || field === 'pickupDate' ? 'return|pickup' : field, 'i'),
    );
  });

  it('an unknown or malformed search location is a 404 or 400, never a 500', async () => {
    expect((await search(999_999, week)).status).toBe(404);
    const res = await ctx.app.inject({ url: '/api/v1/vehicles/search/abc', query: week });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('searchQueryId');
  });
});
