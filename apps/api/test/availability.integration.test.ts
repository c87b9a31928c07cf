import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busyFromIso, isPeriodFree } from '@ampere/domain/availability';
import { Vehicle } from '@ampere/domain/contract/catalog';
import { addDays, addMinutes, toInstant } from '@ampere/domain/time';
import { optionId, reserve } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { signInAs } from './sessions.ts';

const CHICAGO = 'America/Chicago';
/** A window far from the demo holds (which lie within a month of the test clock). */
const WINDOW_START = '2027-04-05';
const STEPS_PER_DAY = 96;

/** A local date-time `step` quarter-hours after the window's first midnight. */
const local = (step: number) => addMinutes({ date: WINDOW_START, time: '00:00' }, step * 15);

/**
 * Decision 015: search (the in-memory index), the vehicle page (the vehicle response read by the
 * domain rule) and booking (the exclusion constraint behind POST /api/v1/reservations) agree on
 * whether a car is free for a period, for generated bookings and periods.
 */
describe.each(engines())('one availability rule on %s', (engine) => {
  let ctx: TestContext;
  let nashville: number;
  let vin: string;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    nashville = await optionId(ctx.handle.db, 'CITY', 'Nashville, TN');
    // A self-serve car free for the whole window, whose bookings this file alone makes.
    const search = await ctx.app.inject({
      url: `/api/v1/vehicles/search/${nashville}`,
      query: {
        pickupDate: WINDOW_START,
        returnDate: addDays(WINDOW_START, 20),
        pickupTime: '00:00',
        returnTime: '00:00',
        limit: '100',
      },
    });
    vin = (search.json().items as { vin: string; is_self_serve_booking_allowed: boolean }[])
      .filter((i) => i.is_self_serve_booking_allowed)
      .at(-1)!.vin;
  });
  afterAll(() => ctx?.close());

  const clear = () =>
    ctx.handle.db
      .updateTable('reservations')
      .set({ status: 'Canceled' })
      .where('vehicle_id', '=', ctx.handle.db.selectFrom('vehicles').select('id').where('vin', '=', vin))
      .where('status', 'in', ['Started', 'Pending', 'On Rent'])
      .execute();

  const trip = (p: { start: number; length: number }) => {
    const pickup = local(p.start);
    const ret = local(p.start + p.length);
    return { pickupDate: pickup.date, pickupTime: pickup.time, returnDate: ret.date, returnTime: ret.time };
  };

  async function searchOffers(t: ReturnType<typeof trip>): Promise<boolean> {
    const res = await ctx.app.inject({ url: `/api/v1/vehicles/search/${nashville}`, query: { ...t, limit: '100' } });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().items as { vin: string }[]).some((i) => i.vin === vin);
  }

  async function pageSaysFree(t: ReturnType<typeof trip>): Promise<boolean> {
    const vehicle = Vehicle.parse((await ctx.app.inject({ url: `/api/v1/vehicles/${vin}` })).json());
    const pickupMs = toInstant({ date: t.pickupDate, time: t.pickupTime }, CHICAGO).getTime();
    const returnMs = toInstant({ date: t.returnDate, time: t.returnTime }, CHICAGO).getTime();
    return isPeriodFree(busyFromIso(vehicle.busy), pickupMs, returnMs);
  }

  /** Books through the API; a booking made is canceled again so the next period sees the same holds. */
  async function apiBooks(t: ReturnType<typeof trip>): Promise<boolean> {
    const who = await signInAs(ctx);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reservations',
      headers: who.headers,
      payload: { vehicleVin: vin, ...t, addonIds: [], vehicleTimezone: CHICAGO },
    });
    expect([201, 409], res.body).toContain(res.statusCode);
    if (res.statusCode !== 201) return false;
    const platformId = res.json().reservation.platform_id as string;
    await ctx.handle.db
      .updateTable('reservations')
      .set({ status: 'Canceled' })
      .where('platform_id', '=', platformId)
      .execute();
    return true;
  }

  it('property: for any bookings the database took, search offers a period exactly when the page calls it free and the API books it', async () => {
    const holds = fc.array(
      fc.record({
        start: fc.integer({ min: 0, max: 12 * STEPS_PER_DAY }),
        length: fc.integer({ min: 4, max: 4 * STEPS_PER_DAY }),
      }),
      { minLength: 1, maxLength: 5 },
    );
    // Periods the API accepts (a return at least a day after the pickup), each starting or ending
    // near one of the holds, where the turnaround decides.
    const periods = fc.array(
      fc.record({
        hold: fc.nat(),
        side: fc.constantFrom('pickup after', 'return before'),
        delta: fc.integer({ min: -8, max: 8 }),
        length: fc.integer({ min: STEPS_PER_DAY, max: 4 * STEPS_PER_DAY }),
      }),
      { minLength: 3, maxLength: 3 },
    );
    let offered = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(holds, periods, async (tries, asked) => {
        await clear();
        try {
          for (const h of tries) {
            const from = toInstant(local(h.start), CHICAGO);
            const to = toInstant(local(h.start + h.length), CHICAGO);
            await reserve(ctx.handle.db, vin, from, to).catch((err: { code?: string }) => {
              // The exclusion constraint refused an overlapping hold: that booking simply does not exist.
              if (err.code !== '23P01') throw err;
            });
          }
          for (const a of asked) {
            const h = tries[a.hold % tries.length]!;
            const start = a.side === 'pickup after' ? h.start + h.length + a.delta : h.start + a.delta - a.length;
            const t = trip({ start, length: a.length });
            const [bySearch, byPage, byApi] = [await searchOffers(t), await pageSaysFree(t), await apiBooks(t)];
            expect({ t, bySearch, byPage }).toEqual({ t, bySearch: byApi, byPage: byApi });
            if (byApi) offered += 1;
            else refused += 1;
          }
        } finally {
          await clear();
        }
      }),
      { numRuns: 12 },
    );
    // The generated cases exercised both answers.
    expect(offered).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  }, 240_000);

  it('a period search offers is bookable from the page and by the API, right next to another booking', async () => {
    await clear();
    // A booking returning at 10:00 on the window's second day; the next may start at 11:00.
    await reserve(
      ctx.handle.db,
      vin,
      toInstant({ date: addDays(WINDOW_START, -2), time: '10:00' }, CHICAGO),
      toInstant({ date: addDays(WINDOW_START, 1), time: '10:00' }, CHICAGO),
    );
    // And one picked up at 10:00 on the window's sixth day: a trip before it must return by 09:00.
    await reserve(
      ctx.handle.db,
      vin,
      toInstant({ date: addDays(WINDOW_START, 5), time: '10:00' }, CHICAGO),
      toInstant({ date: addDays(WINDOW_START, 7), time: '10:00' }, CHICAGO),
    );
    const tooSoon = {
      pickupDate: addDays(WINDOW_START, 1),
      pickupTime: '10:45',
      returnDate: addDays(WINDOW_START, 4),
      returnTime: '10:00',
    };
    const next = { ...tooSoon, pickupTime: '11:00' };
    const tooLate = { ...next, returnDate: addDays(WINDOW_START, 5), returnTime: '09:15' };
    expect([await searchOffers(tooSoon), await pageSaysFree(tooSoon)]).toEqual([false, false]);
    expect([await searchOffers(tooLate), await pageSaysFree(tooLate)]).toEqual([false, false]);
    expect([await searchOffers(next), await pageSaysFree(next)]).toEqual([true, true]);
    expect(await apiBooks(tooLate)).toBe(false);
    const vehicle = Vehicle.parse((await ctx.app.inject({ url: `/api/v1/vehicles/${vin}` })).json());
    // The return day is partly taken: still available on the day map.
    expect(vehicle.availability[next.pickupDate]).toBe(true);
    expect(await apiBooks(tooSoon)).toBe(false);
    expect(await apiBooks(next)).toBe(true);
    await clear();
  });

  it("a renter's own unpaid booking is not 'taken' for them: the page offers to continue it, and booking again replaces it", async () => {
    await clear();
    const me = await signInAs(ctx);
    const t = trip({ start: 4 * STEPS_PER_DAY + 40, length: 2 * STEPS_PER_DAY });
    const booked = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reservations',
      headers: me.headers,
      payload: { vehicleVin: vin, ...t, vehicleTimezone: CHICAGO },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const platformId = booked.json().reservation.platform_id;
    const mine = await ctx.app.inject({ url: `/api/v1/vehicles/${vin}`, headers: me.headers });
    expect(mine.headers['cache-control']).toBe('private, no-store');
    const seen = Vehicle.parse(mine.json());
    expect(seen.own_booking?.platform_id).toBe(platformId);
    expect(
      isPeriodFree(
        busyFromIso(seen.busy),
        toInstant({ date: t.pickupDate, time: t.pickupTime }, CHICAGO).getTime(),
        toInstant({ date: t.returnDate, time: t.returnTime }, CHICAGO).getTime(),
      ),
    ).toBe(true);
    // Anyone else, signed in or not, sees the car taken and no booking of theirs.
    const other = await signInAs(ctx);
    for (const headers of [{}, other.headers]) {
      const v = Vehicle.parse((await ctx.app.inject({ url: `/api/v1/vehicles/${vin}`, headers })).json());
      expect(v.own_booking).toBeNull();
      expect(
        isPeriodFree(
          busyFromIso(v.busy),
          toInstant({ date: t.pickupDate, time: t.pickupTime }, CHICAGO).getTime(),
          toInstant({ date: t.returnDate, time: t.returnTime }, CHICAGO).getTime(),
        ),
      ).toBe(false);
    }
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reservations',
      headers: me.headers,
      payload: { vehicleVin: vin, ...t, vehicleTimezone: CHICAGO },
    });
    expect(again.statusCode, again.body).toBe(201);
    await clear();
  });
});
