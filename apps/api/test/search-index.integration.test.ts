import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVE_RESERVATION_STATUSES,
  COLORS,
  type ReservationStatus,
  TURNAROUND_MINUTES,
} from '@ampere/domain/constants';
import { baseModel } from '@ampere/domain/filters';
import { toInstant } from '@ampere/domain/time';
import { distanceMiles } from '@ampere/domain/vehicle';
import { seededRandom } from '../src/seed/vin.ts';
import { reserve } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';

/**
 * The in-memory index against a plain reading of the database: for many searches (places, dates,
 * filters, pages) over a fleet with many holds, the same cars in the same order, the same total
 * and the same colours and models.
 */
describe.each(engines())('search index agrees with the database on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    const random = seededRandom(7);
    const cars = await ctx.handle.db.selectFrom('vehicles').select(['vin']).orderBy('id').execute();
    const statuses: ReservationStatus[] = [...ACTIVE_RESERVATION_STATUSES, 'Returned', 'Canceled'];
    for (const { vin } of cars) {
      // About half the cars get one or two holds in December, some of them not active.
      for (let k = 0; k < 2; k++) {
        if (random() < 0.5) continue;
        const start = Date.UTC(2026, 11, 1 + Math.floor(random() * 25), Math.floor(random() * 24));
        const end = start + (1 + Math.floor(random() * 5)) * 86_400_000 + Math.floor(random() * 8) * 3_600_000;
        await reserve(
          ctx.handle.db,
          vin,
          new Date(start),
          new Date(end),
          statuses[Math.floor(random() * statuses.length)],
        ).catch(() => undefined);
      }
    }
  }, 240_000);
  afterAll(() => ctx?.close());

  async function expected(
    optionId: number,
    q: {
      pickupDate: string;
      returnDate: string;
      model?: string;
      variant?: string;
      color?: string;
      limit: number;
      page: number;
    },
  ) {
    const db = ctx.handle.db;
    const option = await db
      .selectFrom('search_options')
      .selectAll()
      .where('id', '=', optionId)
      .executeTakeFirstOrThrow();
    const from = toInstant({ date: q.pickupDate, time: '10:00' }, option.timezone).getTime();
    const to = toInstant({ date: q.returnDate, time: '10:00' }, option.timezone).getTime();
    const rows = await db
      .selectFrom('vehicles as v')
      .innerJoin('locations as l', 'l.id', 'v.location_id')
      .innerJoin('vehicle_models as m', 'm.id', 'v.model_id')
      .select([
        'v.id',
        'v.vin',
        'v.color',
        'v.rack_rate',
        'l.tax_rate_ppm',
        'l.latitude',
        'l.longitude',
        'l.state',
        'l.region_id',
        'm.name as model',
      ])
      .execute();
    const holds = await db
      .selectFrom('reservations')
      .select(['vehicle_id', 'pickup_at', 'blocked_until'])
      .where('status', 'in', [...ACTIVE_RESERVATION_STATUSES])
      .execute();
    // Decision 015, as the constraint states it: the period plus its turnaround meets a hold.
    const toWithTurnaround = to + TURNAROUND_MINUTES * 60_000;
    const busy = new Set(
      holds
        .filter((h) => new Date(h.pickup_at).getTime() < toWithTurnaround && from < new Date(h.blocked_until).getTime())
        .map((h) => h.vehicle_id),
    );
    const free = rows
      .filter((r) => (option.type === 'STATE' ? r.state === option.state : r.region_id === option.region_id))
      .filter((r) => !busy.has(r.id))
      .map((r) => ({ ...r, distance: distanceMiles(option, r) }))
      .sort(
        (a, b) =>
          a.distance - b.distance ||
          a.rack_rate * (1e6 + a.tax_rate_ppm) - b.rack_rate * (1e6 + b.tax_rate_ppm) ||
          (a.vin < b.vin ? -1 : 1),
      );
    const wanted = free.filter(
      (r) =>
        (!q.model || r.model.toLowerCase() === q.model.toLowerCase()) &&
        (q.variant !== 'long-range' || r.model.endsWith(' Long Range')) &&
        (q.variant !== 'standard' || !r.model.endsWith(' Long Range')) &&
        (!q.color || r.color === q.color.toUpperCase()),
    );
    return {
      vins: wanted.slice((q.page - 1) * q.limit, q.page * q.limit).map((r) => r.vin),
      total: wanted.length,
      colors: COLORS.filter((c) => free.some((r) => r.color === c)),
      models: [...new Set(free.map((r) => baseModel(r.model)))].sort(),
    };
  }

  it('gives the same page, total, colours and models for 60 varied searches', async () => {
    const random = seededRandom(11);
    const options = await ctx.handle.db
      .selectFrom('search_options')
      .select(['id'])
      .where('type', 'in', ['CITY', 'AIRPORT', 'STATE', 'LANDMARK'])
      .execute();
    const models = ['Model 3', 'Model Y', 'Model S', 'Model Y Long Range', 'Model Z'];
    for (let n = 0; n < 60; n++) {
      const option = options[Math.floor(random() * options.length)]!.id;
      const start = 1 + Math.floor(random() * 26);
      const q = {
        pickupDate: `2026-12-${String(start).padStart(2, '0')}`,
        returnDate: `2026-12-${String(Math.min(31, start + 1 + Math.floor(random() * 5))).padStart(2, '0')}`,
        limit: 1 + Math.floor(random() * 40),
        page: 1 + Math.floor(random() * 3),
        ...(random() < 0.3 ? { model: models[Math.floor(random() * models.length)]! } : {}),
        ...(random() < 0.2 ? { variant: random() < 0.5 ? 'long-range' : 'standard' } : {}),
        ...(random() < 0.3 ? { color: COLORS[Math.floor(random() * COLORS.length)]!.toLowerCase() } : {}),
      };
      const res = await ctx.app.inject({
        url: `/api/v1/vehicles/search/${option}`,
        query: Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])),
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      const want = await expected(option, q);
      const got = {
        vins: body.items.map((i: { vin: string }) => i.vin),
        total: body.total,
        colors: body.filters.colors,
        models: body.filters.models,
      };
      expect(got, JSON.stringify({ option, q })).toEqual(want);
    }
  }, 120_000);
});
