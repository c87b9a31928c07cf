import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clashes } from '@ampere/domain/availability';
import { ACTIVE_RESERVATION_STATUSES, COLORS } from '@ampere/domain/constants';
import { type Variant, isLongRange } from '@ampere/domain/filters';
import { distanceMiles } from '@ampere/domain/vehicle';
import {
  type FleetCar,
  FleetBuilder,
  type FleetLocation,
  type FleetModel,
  FleetSearch,
  type HoldRow,
} from './fleet.ts';
import { modelView } from './model-view.ts';

const T0 = Date.UTC(2026, 11, 1);

const MODELS: FleetModel[] = [
  ['Model 3', 'model-3'],
  ['Model 3 Long Range', 'model-3-lr'],
  ['Model Y', 'model-y'],
  ['Model Y Long Range', 'model-y-lr'],
  ['Ioniq 5', 'ioniq-5'],
].map(([name, slug], i) => ({
  id: 10 + i,
  name: name!,
  slug: slug!,
  type: 'SUV',
  seating_capacity: 5,
  drivetrain: 'AWD',
  mile_range: 300 + i,
  zero_to_sixty_mph_seconds: 4.5,
  top_speed_mph: 130,
}));

/** Drawings for every model in every colour but the Ioniq 5 in red: a car can have no photo at all. */
const MODEL_PHOTOS = new Map(
  MODELS.flatMap((m) =>
    COLORS.filter((c) => !(m.slug === 'ioniq-5' && c === 'RED')).map((c) => [
      `${m.id}:${c}`,
      `/media/${m.slug}/${c}.png`,
    ]),
  ),
);

const STATES = ['TN', 'GA'];
/** Active ones take the car; the others (a returned or cancelled trip) do not. */
const STATUSES = [...ACTIVE_RESERVATION_STATUSES, 'Returned', 'Canceled'];
const isActive = (status: string) => (ACTIVE_RESERVATION_STATUSES as readonly string[]).includes(status);

/** A fleet of a few lots in a few regions of two states, cars of every model and colour, some with holds. */
const fleetArb = fc
  .record({
    lots: fc.array(
      fc.record({
        region: fc.integer({ min: 1, max: 3 }),
        state: fc.constantFrom(...STATES),
        // Lots close together, some at the same spot (equal distances: price, then VIN decide).
        latitude: fc.constantFrom(36, 36.01, 36.05, 36.2),
        longitude: fc.constantFrom(-86.7, -86.75, -86.8),
        tax: fc.constantFrom(80_000, 92_500),
        name: fc.string({ maxLength: 12 }),
      }),
      { minLength: 1, maxLength: 5 },
    ),
    cars: fc.array(
      fc.record({
        lot: fc.nat(),
        model: fc.nat({ max: MODELS.length - 1 }),
        color: fc.nat({ max: COLORS.length - 1 }),
        rate: fc.constantFrom(8_900, 9_900, 12_900),
        selfServe: fc.boolean(),
        ownPhoto: fc.boolean(),
        year: fc.integer({ min: 2020, max: 2026 }),
        odometer: fc.integer({ min: 0, max: 120_000 }),
        holds: fc.array(
          fc.record({
            start: fc.integer({ min: 0, max: 40 * 24 }),
            hours: fc.integer({ min: 1, max: 10 * 24 }),
            status: fc.constantFrom(...STATUSES),
          }),
          { maxLength: 3 },
        ),
      }),
      { maxLength: 60 },
    ),
  })
  .map(({ lots, cars }) => {
    const locations: FleetLocation[] = lots.map((l, i) => ({
      id: 100 + i,
      name: `Lot ${l.name}`,
      street: `${i} Main St`,
      city: 'Nashville',
      state: l.state,
      latitude: l.latitude,
      longitude: l.longitude,
      timezone: 'America/Chicago',
      tax_rate_ppm: l.tax,
      region_id: l.region,
    }));
    const fleetCars: FleetCar[] = cars.map((c, i) => ({
      vehicle_id: 1_000 + i * 3,
      vin: `VIN${String((i * 7919) % 1000).padStart(4, '0')}${i}`,
      year: c.year,
      color: COLORS[c.color]!,
      odometer: c.odometer,
      rack_rate: c.rate,
      is_self_serve_booking_allowed: c.selfServe,
      // Some with a character of two UTF-8 bytes.
      platform_id: `VEH-${i}${i % 3 === 0 ? 'é' : ''}`,
      battery_type: c.model % 2 ? 'NMC' : 'LFP',
      model_id: MODELS[c.model]!.id,
      location_id: locations[c.lot % locations.length]!.id,
      own_photo: c.ownPhoto ? `/photos/${i}.jpg` : null,
    }));
    const holds: HoldRow[] = cars.flatMap((c, i) =>
      c.holds.map((h, k) => ({
        id: `h${i}-${k}`,
        vehicle_id: fleetCars[i]!.vehicle_id,
        status: h.status,
        pickup_at: new Date(T0 + h.start * 3_600_000),
        blocked_until: new Date(T0 + (h.start + h.hours) * 3_600_000),
      })),
    );
    return { locations, cars: fleetCars, holds };
  });

const queryArb = fc.record({
  byState: fc.boolean(),
  region: fc.integer({ min: 1, max: 3 }),
  state: fc.constantFrom(...STATES),
  // A search location's place never changes: its id names it (the index caches by it).
  origin: fc.constantFrom(
    { id: 1, latitude: 36, longitude: -86.7 },
    { id: 2, latitude: 36.1, longitude: -86.9 },
    { id: 3, latitude: 36.1, longitude: -86.7 },
  ),
  startHours: fc.integer({ min: 0, max: 45 * 24 }),
  hours: fc.integer({ min: 1, max: 14 * 24 }),
  model: fc.option(fc.constantFrom('model 3', 'Model Y', 'MODEL Y LONG RANGE', 'Ioniq 5', 'Cybertruck'), {
    nil: undefined,
  }),
  variant: fc.option(fc.constantFrom<Variant>('long-range', 'standard'), { nil: undefined }),
  color: fc.option(fc.constantFrom(...COLORS), { nil: undefined }),
  limit: fc.integer({ min: 1, max: 20 }),
  offset: fc.integer({ min: 0, max: 30 }),
});

function build(f: { locations: FleetLocation[]; cars: FleetCar[]; holds: HoldRow[] }, sliceSize: number) {
  const builder = new FleetBuilder(MODELS, f.locations, MODEL_PHOTOS);
  for (let i = 0; i < f.cars.length; i += sliceSize) builder.add(f.cars.slice(i, i + sliceSize));
  const search = new FleetSearch(builder.build());
  search.apply(f.holds);
  return search;
}

/** The search as the spec reads, over plain rows: no columns, no caches, no counts. */
type Query = typeof queryArb extends fc.Arbitrary<infer T> ? T : never;

function reference(f: { locations: FleetLocation[]; cars: FleetCar[]; holds: HoldRow[] }, q: Query) {
  const from = T0 + q.startHours * 3_600_000;
  const to = from + q.hours * 3_600_000;
  const lot = (c: FleetCar) => f.locations.find((l) => l.id === c.location_id)!;
  const model = (c: FleetCar) => MODELS.find((m) => m.id === c.model_id)!.name;
  const free = f.cars
    .filter((c) => (q.byState ? lot(c).state === q.state : lot(c).region_id === q.region))
    .filter(
      (c) =>
        !f.holds.some(
          (h) =>
            h.vehicle_id === c.vehicle_id &&
            isActive(h.status) &&
            clashes(new Date(h.pickup_at).getTime(), new Date(h.blocked_until).getTime(), from, to),
        ),
    )
    .map((c) => ({
      c,
      distance: distanceMiles(q.origin, lot(c)),
      price: c.rack_rate * (1_000_000 + lot(c).tax_rate_ppm),
    }))
    .sort((a, b) => a.distance - b.distance || a.price - b.price || (a.c.vin < b.c.vin ? -1 : 1));
  const matching = free.filter(
    ({ c }) =>
      (q.model === undefined || model(c).toLowerCase() === q.model.trim().toLowerCase()) &&
      (q.variant === undefined || isLongRange(model(c)) === (q.variant === 'long-range')) &&
      (q.color === undefined || c.color === q.color),
  );
  return {
    colors: COLORS.filter((color) => free.some(({ c }) => c.color === color)),
    models: [...new Set(free.map(({ c }) => model(c)))].sort(),
    total: matching.length,
    vins: matching.slice(q.offset, q.offset + q.limit).map(({ c }) => c.vin),
    distances: matching.slice(q.offset, q.offset + q.limit).map(({ distance }) => distance),
  };
}

describe('the search index over compact columns', () => {
  it('finds the same cars in the same order, with the same total, colours and models, as a plain filter', () => {
    fc.assert(
      fc.property(
        fleetArb,
        fc.array(queryArb, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 25 }),
        (f, queries, slice) => {
          const search = build(f, slice);
          for (const q of queries) {
            const from = T0 + q.startHours * 3_600_000;
            const page = search.search(
              {
                ...(q.byState ? { state: q.state } : { regionId: q.region }),
                origin: q.origin,
              },
              {
                from: new Date(from),
                to: new Date(from + q.hours * 3_600_000),
                model: q.model,
                variant: q.variant,
                color: q.color,
                limit: q.limit,
                offset: q.offset,
              },
            );
            const want = reference(f, q);
            expect({
              colors: page.colors,
              models: [...page.models].sort(),
              total: page.total,
              vins: page.items.map((i) => page.fleet.vin(i.at)),
              distances: page.items.map((i) => i.distance),
            }).toEqual(want);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('sees holds added and removed after the first search of a place', () => {
    fc.assert(
      fc.property(fleetArb, queryArb, (f, q) => {
        const search = build({ ...f, holds: [] }, 7);
        const scope = { ...(q.byState ? { state: q.state } : { regionId: q.region }), origin: q.origin };
        const from = T0 + q.startHours * 3_600_000;
        const query = { from: new Date(from), to: new Date(from + q.hours * 3_600_000), limit: 100, offset: 0 };
        search.search(scope, query);
        search.apply(f.holds);
        const vins = (p: ReturnType<typeof search.search>) => p.items.map((i) => p.fleet.vin(i.at));
        expect(vins(search.search(scope, query))).toEqual(
          reference(f, { ...q, model: undefined, variant: undefined, color: undefined, limit: 100, offset: 0 }).vins,
        );
        // Each one cancelled (read again as a change): the cars are free again.
        search.apply(f.holds.map((h) => ({ ...h, status: 'Canceled' })));
        expect(vins(search.search(scope, query))).toEqual(
          reference(
            { ...f, holds: [] },
            { ...q, model: undefined, variant: undefined, color: undefined, limit: 100, offset: 0 },
          ).vins,
        );
      }),
      { numRuns: 100 },
    );
  });

  it('gives the answers of a plain filter over the latest row of each hold, whatever order holds are added, moved and cancelled in', () => {
    const eventArb = fc.record({
      hold: fc.nat({ max: 11 }),
      // A car of the fleet, by index, or one the fleet does not have.
      car: fc.integer({ min: -1, max: 59 }),
      start: fc.integer({ min: 0, max: 40 * 24 }),
      hours: fc.integer({ min: 1, max: 10 * 24 }),
      status: fc.constantFrom(...STATUSES),
    });
    fc.assert(
      fc.property(
        fleetArb,
        fc.uniqueArray(fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 8 })), {
          minLength: 12,
          maxLength: 12,
        }),
        fc.array(fc.array(eventArb, { maxLength: 6 }), { minLength: 1, maxLength: 10 }),
        fc.array(queryArb, { minLength: 1, maxLength: 3 }),
        (f, ids, batches, queries) => {
          const search = build({ ...f, holds: [] }, 9);
          const latest = new Map<string, HoldRow>();
          for (const batch of batches) {
            const rows: HoldRow[] = batch.map((e) => ({
              id: ids[e.hold]!,
              vehicle_id: e.car < 0 || f.cars.length === 0 ? 1 : f.cars[e.car % f.cars.length]!.vehicle_id,
              status: e.status,
              pickup_at: new Date(T0 + e.start * 3_600_000),
              blocked_until: new Date(T0 + (e.start + e.hours) * 3_600_000),
            }));
            search.apply(rows);
            for (const r of rows) latest.set(r.id, r);
            // Searched after every batch, so scopes cached earlier must see the batch's changes.
            for (const q of queries) {
              const from = T0 + q.startHours * 3_600_000;
              const page = search.search(
                { ...(q.byState ? { state: q.state } : { regionId: q.region }), origin: q.origin },
                {
                  from: new Date(from),
                  to: new Date(from + q.hours * 3_600_000),
                  model: q.model,
                  variant: q.variant,
                  color: q.color,
                  limit: q.limit,
                  offset: q.offset,
                },
              );
              expect({
                colors: page.colors,
                models: [...page.models].sort(),
                total: page.total,
                vins: page.items.map((i) => page.fleet.vin(i.at)),
                distances: page.items.map((i) => i.distance),
              }).toEqual(reference({ ...f, holds: [...latest.values()] }, q));
            }
          }
          expect(search.holdCount).toBe([...latest.values()].filter((r) => isActive(r.status)).length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("writes each car's result text as JSON.stringify writes the item's fields", () => {
    fc.assert(
      fc.property(fleetArb, (f) => {
        const { fleet } = build(f, 10);
        f.cars.forEach((c, at) => {
          const l = f.locations.find((x) => x.id === c.location_id)!;
          const item = {
            vin: c.vin,
            year: c.year,
            color: c.color,
            odometer: c.odometer,
            rack_rate: c.rack_rate,
            is_self_serve_booking_allowed: c.is_self_serve_booking_allowed,
            platform_id: c.platform_id,
            battery_type: c.battery_type,
            images: [c.own_photo ?? MODEL_PHOTOS.get(`${c.model_id}:${c.color}`)]
              .filter((url) => url !== undefined)
              .map((image_url) => ({ view: 'MONEYSHOT', image_url })),
            model: modelView(MODELS.find((m) => m.id === c.model_id)!),
            location: {
              id: l.id,
              name: l.name,
              street: l.street,
              city: l.city,
              state: l.state,
              latitude: l.latitude,
              longitude: l.longitude,
              timezone: l.timezone,
            },
          };
          expect(fleet.itemHead(at)).toBe(JSON.stringify(item).slice(0, -1));
          // The bytes a response is copied from, read twice (the second time from the cache).
          expect(fleet.itemHeadBytes(at).toString()).toBe(fleet.itemHead(at));
          expect(fleet.itemHeadBytes(at).toString()).toBe(fleet.itemHead(at));
          expect(fleet.positionOf(c.vehicle_id)).toBe(at);
        });
        expect(fleet.positionOf(1)).toBe(-1);
      }),
      { numRuns: 100 },
    );
  });

  it('keeps handing out the right bytes of each car when the result bytes outgrow their room, read in any order', () => {
    fc.assert(
      fc.property(
        fleetArb,
        fc.array(fc.nat(), { maxLength: 200 }),
        fc.integer({ min: 1, max: 4_000 }),
        (f, reads, room) => {
          const builder = new FleetBuilder(MODELS, f.locations, MODEL_PHOTOS);
          builder.add(f.cars);
          const fleet = builder.build(room);
          if (fleet.size === 0) return;
          // Views handed out earlier still read their car's bytes after later ones filled the room.
          const views = reads.map((r) => [r % fleet.size, fleet.itemHeadBytes(r % fleet.size)] as const);
          for (const [at, view] of views) expect(view.toString()).toBe(fleet.itemHead(at));
        },
      ),
      { numRuns: 100 },
    );
  });
});
