import type { Kysely } from 'kysely';
import { ACTIVE_RESERVATION_STATUSES } from '@ampere/domain/constants';
import { distanceMiles } from '@ampere/domain/vehicle';
import type { Clock } from '../../app.ts';
import type { Database } from '../../db/schema.ts';
import { type SearchScope, allSearchScopes, getSearchScope } from '../search/service.ts';
import * as repo from './repository.ts';

type FleetRow = Awaited<ReturnType<typeof repo.fleetForIndex>>[number];

export interface FleetEntry extends FleetRow {
  /** Sorts like the all-in daily price: rack × (1 + tax rate). */
  priceKey: number;
  modelKey: string;
  isLongRange: boolean;
  /** What a search result says of this car apart from distance and price, as JSON (filled by the service). */
  itemJson: string | null;
}

/**
 * Written out field by field so every entry has the same hidden class: a search touches hundreds
 * of entries, and a spread of a driver row can leave them as slow dictionary-mode objects.
 */
function toEntry(r: FleetRow): FleetEntry {
  return {
    vehicle_id: r.vehicle_id, vin: r.vin, year: r.year, color: r.color, odometer: r.odometer, rack_rate: r.rack_rate,
    is_self_serve_booking_allowed: r.is_self_serve_booking_allowed, platform_id: r.platform_id, battery_type: r.battery_type, model_id: r.model_id,
    model_name: r.model_name, model_slug: r.model_slug, model_type: r.model_type, seating_capacity: r.seating_capacity, drivetrain: r.drivetrain,
    mile_range: r.mile_range, zero_to_sixty_mph_seconds: r.zero_to_sixty_mph_seconds, top_speed_mph: r.top_speed_mph,
    location_id: r.location_id, location_name: r.location_name, city: r.city, state: r.state, latitude: r.latitude, longitude: r.longitude,
    timezone: r.timezone, tax_rate_ppm: r.tax_rate_ppm, region_id: r.region_id, image_url: r.image_url,
    priceKey: r.rack_rate * (1_000_000 + r.tax_rate_ppm),
    modelKey: r.model_name.toLowerCase(),
    isLongRange: r.model_name.endsWith(' Long Range'),
    itemJson: null,
  };
}

interface Hold {
  vehicleId: number;
  from: number;
  to: number;
}

export interface IndexScope {
  regionId?: number;
  state?: string;
  origin: { id: number; latitude: number; longitude: number };
}

export interface IndexQuery {
  from: Date;
  to: Date;
  model?: string | undefined;
  variant?: 'long-range' | 'standard' | undefined;
  color?: string | undefined;
  limit: number;
  offset: number;
}

export interface IndexPage {
  colors: string[];
  models: string[];
  total: number;
  items: { entry: FleetEntry; distance: number }[];
}

export interface SearchIndexOptions {
  /** How old the view of reservations may be before a search waits for a fresh look (0: always look). */
  maxStalenessMs: number;
  /** How often the fleet itself (cars, places, prices) is read again. */
  fleetReloadMs: number;
}

/**
 * A look re-reads changes this far before the previous look (by the database's clock), so a
 * reservation written by a transaction that began earlier but committed later is still seen.
 */
const CHANGE_WINDOW_MS = 5_000;
/** Cars sorted by distance are kept for this many search locations. */
const SORTED_CACHE_SIZE = 4_000;
const ACTIVE = new Set<string>(ACTIVE_RESERVATION_STATUSES);

/**
 * The fleet and its active reservations, held in memory so a search needs no database round trip.
 *
 * Searches are advisory: booking is guarded by the database's exclusion constraint, so a search
 * may lag the database by at most `maxStalenessMs` (and this process's own bookings call
 * `markStale`). Reservations are read incrementally by `updated_at`, re-reading a window to catch
 * transactions that committed out of order; the fleet and every reservation are read again every
 * `fleetReloadMs`, which also drops anything deleted. Every API process keeps its own index.
 */
export class SearchIndex {
  private fleet: FleetEntry[] = [];
  private scopes = new Map<number, SearchScope>();
  private byRegion = new Map<number, FleetEntry[]>();
  private byState = new Map<string, FleetEntry[]>();
  private holds = new Map<string, Hold>();
  private holdsByVehicle = new Map<number, Hold[]>();
  private sorted = new Map<string, { entries: FleetEntry[]; distances: Float64Array }>();
  private fleetLoadedAt = -Infinity;
  private holdsCheckedAt = -Infinity;
  /** The database's clock when the previous look began. */
  private lastLookAt: Date | null = null;
  private inflight: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly options: SearchIndexOptions,
  ) {}

  /** The next search reads reservations again (a booking in this process changed them). */
  markStale(): void {
    this.holdsCheckedAt = -Infinity;
  }

  /** Brings the index within its staleness bound; concurrent callers share one refresh. */
  async ensureFresh(): Promise<void> {
    const now = performance.now();
    const fleetDue = now - this.fleetLoadedAt >= this.options.fleetReloadMs;
    const holdsDue = now - this.holdsCheckedAt >= this.options.maxStalenessMs;
    if (!fleetDue && !holdsDue) return;
    // With a fleet in hand, a due fleet reload runs in the background and searches go on.
    if (!holdsDue && this.fleet.length > 0) {
      void this.refresh(true).catch(() => undefined);
      return;
    }
    await this.refresh(fleetDue);
  }

  private refresh(full: boolean): Promise<void> {
    this.inflight ??= (full ? this.loadAll() : this.loadChanges()).finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private async loadAll(): Promise<void> {
    const startedAt = performance.now();
    const after = new Date(this.clock().getTime() - 2 * 86_400_000);
    const lookAt = await repo.databaseNow(this.db);
    const [rows, reservations, scopes] = await Promise.all([repo.fleetForIndex(this.db), repo.reservationChanges(this.db, null, after), allSearchScopes(this.db)]);
    this.scopes = new Map(scopes.map((s) => [s.option.id, s]));
    this.fleet = rows.map(toEntry);
    this.byRegion = groupBy(this.fleet, (e) => e.region_id);
    this.byState = groupBy(this.fleet, (e) => e.state);
    this.sorted.clear();
    this.holds.clear();
    this.holdsByVehicle.clear();
    this.lastLookAt = lookAt;
    this.apply(reservations);
    this.fleetLoadedAt = startedAt;
    this.holdsCheckedAt = startedAt;
  }

  private async loadChanges(): Promise<void> {
    const startedAt = performance.now();
    const lookAt = await repo.databaseNow(this.db);
    const since = this.lastLookAt ? new Date(this.lastLookAt.getTime() - CHANGE_WINDOW_MS) : null;
    this.apply(await repo.reservationChanges(this.db, since, new Date(this.clock().getTime() - 2 * 86_400_000)));
    this.lastLookAt = lookAt;
    this.holdsCheckedAt = startedAt;
  }

  private apply(rows: Awaited<ReturnType<typeof repo.reservationChanges>>): void {
    const touched = new Set<number>();
    for (const r of rows) {
      const previous = this.holds.get(r.id);
      const active = ACTIVE.has(r.status);
      const from = new Date(r.pickup_at).getTime();
      const to = new Date(r.return_at).getTime();
      // The window re-reads rows already applied: those change nothing.
      if (previous && active && previous.vehicleId === r.vehicle_id && previous.from === from && previous.to === to) continue;
      if (!previous && !active) continue;
      if (previous) touched.add(previous.vehicleId);
      if (active) {
        this.holds.set(r.id, { vehicleId: r.vehicle_id, from, to });
        touched.add(r.vehicle_id);
      } else this.holds.delete(r.id);
    }
    if (touched.size === 0) return;
    for (const id of touched) this.holdsByVehicle.delete(id);
    for (const h of this.holds.values()) {
      if (!touched.has(h.vehicleId)) continue;
      const list = this.holdsByVehicle.get(h.vehicleId);
      if (list) list.push(h);
      else this.holdsByVehicle.set(h.vehicleId, [h]);
    }
  }

  /** A search location and its scope; one added since the last fleet read is looked up (404 if unknown). */
  async scope(id: number): Promise<SearchScope> {
    return this.scopes.get(id) ?? getSearchScope(this.db, id);
  }

  /** A car is free when none of its active reservations overlaps [from, to) (half-open, as the constraint). */
  private isFree(vehicleId: number, from: number, to: number): boolean {
    const holds = this.holdsByVehicle.get(vehicleId);
    if (!holds) return true;
    for (const h of holds) if (h.from < to && from < h.to) return false;
    return true;
  }

  /** The scope's cars, nearest first, then cheapest all-in, then by VIN (cached per search location). */
  private sortedFor(scope: IndexScope) {
    const key = scope.state !== undefined ? `s:${scope.state}:${scope.origin.id}` : `r:${scope.regionId}:${scope.origin.id}`;
    let hit = this.sorted.get(key);
    if (hit) return hit;
    const cars = (scope.state !== undefined ? this.byState.get(scope.state) : this.byRegion.get(scope.regionId!)) ?? [];
    const withDistance = cars.map((entry) => ({ entry, distance: distanceMiles(scope.origin, entry) }));
    withDistance.sort((a, b) => a.distance - b.distance || a.entry.priceKey - b.entry.priceKey || (a.entry.vin < b.entry.vin ? -1 : 1));
    hit = { entries: withDistance.map((x) => x.entry), distances: Float64Array.from(withDistance, (x) => x.distance) };
    if (this.sorted.size >= SORTED_CACHE_SIZE) this.sorted.delete(this.sorted.keys().next().value!);
    this.sorted.set(key, hit);
    return hit;
  }

  /**
   * One page of the free cars matching the filters, plus the colours and models free for the
   * dates before the model and colour filters, and how many match them all.
   */
  search(scope: IndexScope, q: IndexQuery): IndexPage {
    const { entries, distances } = this.sortedFor(scope);
    const from = q.from.getTime();
    const to = q.to.getTime();
    const model = q.model?.trim().toLowerCase();
    const colors = new Set<string>();
    const models = new Set<string>();
    const items: IndexPage['items'] = [];
    let total = 0;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      if (!this.isFree(e.vehicle_id, from, to)) continue;
      colors.add(e.color);
      models.add(e.model_name);
      if (model && e.modelKey !== model) continue;
      if (q.variant === 'long-range' && !e.isLongRange) continue;
      if (q.variant === 'standard' && e.isLongRange) continue;
      if (q.color && e.color !== q.color) continue;
      if (total >= q.offset && items.length < q.limit) items.push({ entry: e, distance: distances[i]! });
      total += 1;
    }
    return { colors: [...colors], models: [...models], total, items };
  }
}

function groupBy<K>(entries: FleetEntry[], key: (e: FleetEntry) => K): Map<K, FleetEntry[]> {
  const map = new Map<K, FleetEntry[]>();
  for (const e of entries) {
    const k = key(e);
    const list = map.get(k);
    if (list) list.push(e);
    else map.set(k, [e]);
  }
  return map;
}
