import type { Kysely } from 'kysely';
import { clashes } from '@ampere/domain/availability';
import { ACTIVE_RESERVATION_STATUSES, COLORS } from '@ampere/domain/constants';
import { type Variant, isLongRange } from '@ampere/domain/filters';
import { distanceMiles } from '@ampere/domain/vehicle';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { type SearchScope, allSearchScopes, getSearchScope } from '../search/service.ts';
import * as repo from './repository.ts';

type FleetRow = Awaited<ReturnType<typeof repo.fleetForIndex>>[number];

export interface FleetEntry extends FleetRow {
  /** What a search result says of this car apart from distance and price, as UTF-8 JSON (filled by the service). */
  itemJson: Buffer | null;
}

/**
 * Written out field by field so every entry has the same hidden class (a spread of driver rows
 * can leave objects in slow dictionary mode).
 */
function toEntry(r: FleetRow): FleetEntry {
  return {
    vehicle_id: r.vehicle_id,
    vin: r.vin,
    year: r.year,
    color: r.color,
    odometer: r.odometer,
    rack_rate: r.rack_rate,
    is_self_serve_booking_allowed: r.is_self_serve_booking_allowed,
    platform_id: r.platform_id,
    battery_type: r.battery_type,
    model_id: r.model_id,
    model_name: r.model_name,
    model_slug: r.model_slug,
    model_type: r.model_type,
    seating_capacity: r.seating_capacity,
    drivetrain: r.drivetrain,
    mile_range: r.mile_range,
    zero_to_sixty_mph_seconds: r.zero_to_sixty_mph_seconds,
    top_speed_mph: r.top_speed_mph,
    location_id: r.location_id,
    location_name: r.location_name,
    street: r.street,
    city: r.city,
    state: r.state,
    latitude: r.latitude,
    longitude: r.longitude,
    timezone: r.timezone,
    tax_rate_ppm: r.tax_rate_ppm,
    region_id: r.region_id,
    image_url: r.image_url,
    itemJson: null,
  };
}

/** An active reservation's hold on its car: pickup until blocked_until (return plus turnaround). */
interface Hold {
  id: string;
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
  variant?: Variant | undefined;
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

/** A search location's cars in result order, with what a search needs precomputed. */
interface SortedScope {
  /** Fleet positions, nearest first, then cheapest all-in, then by VIN. */
  positions: Int32Array;
  distances: Float64Array;
  /** How many of the scope's cars there are of each model (row) and colour (column). */
  counts: Int32Array;
  /** Every active reservation of the scope's cars as (index in `positions`, from, to), as of `holdsVersion`. */
  holdsVersion: number;
  holdIndex: Int32Array;
  holdFrom: Float64Array;
  holdTo: Float64Array;
}
const LONG_RANGE = 1;

/** The fleet, with what the search loop reads kept in flat arrays indexed by a car's position. */
class Fleet {
  readonly entries: FleetEntry[];
  readonly colorIndex: Uint8Array;
  readonly modelIndex: Uint16Array;
  readonly flags: Uint8Array;
  /** Each car's active reservations, null when it has none. */
  readonly holds: (Hold[] | null)[];
  readonly modelNames: string[];
  readonly modelByKey: Map<string, number>;
  readonly positionOf: Map<number, number>;
  readonly byRegion: Map<number, number[]>;
  readonly byState: Map<string, number[]>;

  constructor(rows: FleetRow[]) {
    this.entries = rows.map(toEntry);
    this.modelNames = [...new Set(rows.map((r) => r.model_name))];
    this.modelByKey = new Map(this.modelNames.map((name, i) => [name.toLowerCase(), i]));
    const n = rows.length;
    this.colorIndex = new Uint8Array(n);
    this.modelIndex = new Uint16Array(n);
    this.flags = new Uint8Array(n);
    this.holds = new Array<Hold[] | null>(n).fill(null);
    this.positionOf = new Map();
    this.byRegion = new Map();
    this.byState = new Map();
    rows.forEach((r, i) => {
      this.colorIndex[i] = (COLORS as readonly string[]).indexOf(r.color);
      this.modelIndex[i] = this.modelByKey.get(r.model_name.toLowerCase())!;
      this.flags[i] = isLongRange(r.model_name) ? LONG_RANGE : 0;
      this.positionOf.set(r.vehicle_id, i);
      push(this.byRegion, r.region_id, i);
      push(this.byState, r.state, i);
    });
  }
}

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The fleet and its active reservations, held in memory so a search needs no database round trip.
 *
 * Searches are advisory: booking is guarded by the database's exclusion constraint, so a search
 * may lag the database by at most `maxStalenessMs` (and this process's own bookings call
 * `markStale`). Reservations are read incrementally by `updated_at`, re-reading a short window to
 * catch transactions that committed out of order; the fleet and every reservation are read again
 * every `fleetReloadMs`, which also drops anything deleted. Every API process keeps its own index.
 */
export class SearchIndex {
  private fleet = new Fleet([]);
  private scopes = new Map<number, SearchScope>();
  private holds = new Map<string, Hold>();
  private sorted = new Map<string, SortedScope>();
  /** Bumped whenever a reservation change is applied; a scope's list of holds is rebuilt when it is behind. */
  private holdsVersion = 0;
  /** Scratch for one search: position i is busy when busyStamp[i] === stampGeneration. */
  private busyStamp = new Uint32Array(0);
  private stampGeneration = 0;
  private fleetLoadedAt = -Infinity;
  private holdsCheckedAt = -Infinity;
  /** The database's clock when the previous look began. */
  private lastLookAt: Date | null = null;
  private inflight: Promise<void> | null = null;
  /** The fleet_version the fleet in hand was read at. */
  private fleetVersion: string | null = null;
  /** A fleet change no read under way has seen yet. */
  private fleetDirty = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly options: SearchIndexOptions,
  ) {}

  /** The next search reads reservations again (a booking in this process changed them). */
  markStale(): void {
    this.holdsCheckedAt = -Infinity;
  }

  /**
   * The next search reads the whole fleet again before it answers (a car added, edited or retired
   * in this process's console, decision 083). A read already under way may predate the change, so
   * the next one starts after it.
   */
  markFleetStale(): void {
    this.fleetLoadedAt = -Infinity;
    this.holdsCheckedAt = -Infinity;
    this.fleetDirty = true;
  }

  /** Brings the index within its staleness bound; concurrent callers share one refresh. */
  async ensureFresh(): Promise<void> {
    const now = performance.now();
    const fleetDue = this.fleetDirty || now - this.fleetLoadedAt >= this.options.fleetReloadMs;
    const holdsDue = this.fleetDirty || now - this.holdsCheckedAt >= this.options.maxStalenessMs;
    if (!fleetDue && !holdsDue) return;
    // With a fleet in hand, a due fleet reload runs in the background and searches go on.
    if (!holdsDue && this.fleet.entries.length > 0) {
      void this.refresh(true).catch(() => undefined);
      return;
    }
    await this.refresh(fleetDue);
  }

  private refresh(full: boolean): Promise<void> {
    // A fleet change made while a read was under way waits for that read, then reads again.
    if (this.inflight && this.fleetDirty) return this.inflight.then(() => this.refresh(true));
    if (full) this.fleetDirty = false;
    this.inflight ??= (full ? this.loadAll() : this.loadChanges()).finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private cutoff(): Date {
    return new Date(this.clock().getTime() - 2 * 86_400_000);
  }

  private async loadAll(): Promise<void> {
    const startedAt = performance.now();
    const lookAt = await repo.databaseNow(this.db);
    // Read before the fleet: a change committed meanwhile moves the version past this one.
    const version = await repo.fleetVersion(this.db);
    const [rows, reservations, scopes] = await Promise.all([
      repo.fleetForIndex(this.db),
      repo.reservationChanges(this.db, null, this.cutoff()),
      allSearchScopes(this.db),
    ]);
    this.scopes = new Map(scopes.map((s) => [s.option.id, s]));
    this.fleet = new Fleet(rows);
    this.sorted.clear();
    this.holds.clear();
    this.lastLookAt = lookAt;
    this.apply(reservations);
    this.fleetVersion = version;
    this.fleetLoadedAt = startedAt;
    this.holdsCheckedAt = startedAt;
  }

  private async loadChanges(): Promise<void> {
    const startedAt = performance.now();
    const lookAt = await repo.databaseNow(this.db);
    const since = this.lastLookAt ? new Date(this.lastLookAt.getTime() - CHANGE_WINDOW_MS) : null;
    const [changes, version] = await Promise.all([
      repo.reservationChanges(this.db, since, this.cutoff()),
      repo.fleetVersion(this.db),
    ]);
    // A car or a lot changed, here or in another API process (decision 083): read the whole fleet.
    if (version !== this.fleetVersion) return this.loadAll();
    this.apply(changes);
    this.lastLookAt = lookAt;
    this.holdsCheckedAt = startedAt;
  }

  private apply(rows: Awaited<ReturnType<typeof repo.reservationChanges>>): void {
    const { holds: byCar, positionOf } = this.fleet;
    for (const r of rows) {
      const previous = this.holds.get(r.id);
      const active = ACTIVE.has(r.status);
      const from = new Date(r.pickup_at).getTime();
      const to = new Date(r.blocked_until).getTime();
      // The window re-reads rows already applied: those change nothing.
      if (previous && active && previous.vehicleId === r.vehicle_id && previous.from === from && previous.to === to)
        continue;
      if (!previous && !active) continue;
      this.holdsVersion += 1;
      if (previous) {
        this.holds.delete(r.id);
        const at = positionOf.get(previous.vehicleId);
        if (at !== undefined && byCar[at]) {
          const rest = byCar[at].filter((h) => h.id !== r.id);
          byCar[at] = rest.length > 0 ? rest : null;
        }
      }
      if (active) {
        const hold: Hold = { id: r.id, vehicleId: r.vehicle_id, from, to };
        this.holds.set(r.id, hold);
        // A car not in the fleet yet gets its holds at the next fleet read, which reads them all.
        const at = positionOf.get(r.vehicle_id);
        if (at !== undefined) byCar[at] = byCar[at] ? [...byCar[at], hold] : [hold];
      }
    }
  }

  /** A search location and its scope; one added since the last fleet read is looked up (404 if unknown). */
  async scope(id: number): Promise<SearchScope> {
    return this.scopes.get(id) ?? getSearchScope(this.db, id);
  }

  /** The scope's cars in result order, cached per search location, with its holds brought up to date. */
  private sortedFor(scope: IndexScope): SortedScope {
    const key =
      scope.state !== undefined ? `s:${scope.state}:${scope.origin.id}` : `r:${scope.regionId}:${scope.origin.id}`;
    let hit = this.sorted.get(key);
    if (!hit) {
      const { entries, modelIndex, colorIndex, modelNames } = this.fleet;
      const cars =
        (scope.state !== undefined ? this.fleet.byState.get(scope.state) : this.fleet.byRegion.get(scope.regionId!)) ??
        [];
      const priceKey = (e: FleetEntry) => e.rack_rate * (1_000_000 + e.tax_rate_ppm);
      const withDistance = cars.map((at) => ({
        at,
        entry: entries[at]!,
        distance: distanceMiles(scope.origin, entries[at]!),
      }));
      withDistance.sort(
        (a, b) =>
          a.distance - b.distance || priceKey(a.entry) - priceKey(b.entry) || (a.entry.vin < b.entry.vin ? -1 : 1),
      );
      const counts = new Int32Array(modelNames.length * COLORS.length);
      for (const { at } of withDistance) counts[modelIndex[at]! * COLORS.length + colorIndex[at]!]! += 1;
      hit = {
        positions: Int32Array.from(withDistance, (x) => x.at),
        distances: Float64Array.from(withDistance, (x) => x.distance),
        counts,
        holdsVersion: -1,
        holdIndex: new Int32Array(0),
        holdFrom: new Float64Array(0),
        holdTo: new Float64Array(0),
      };
      if (this.sorted.size >= SORTED_CACHE_SIZE) this.sorted.delete(this.sorted.keys().next().value!);
      this.sorted.set(key, hit);
    }
    if (hit.holdsVersion !== this.holdsVersion) {
      const index: number[] = [];
      const from: number[] = [];
      const to: number[] = [];
      hit.positions.forEach((at, i) => {
        for (const h of this.fleet.holds[at] ?? []) {
          index.push(i);
          from.push(h.from);
          to.push(h.to);
        }
      });
      hit.holdIndex = Int32Array.from(index);
      hit.holdFrom = Float64Array.from(from);
      hit.holdTo = Float64Array.from(to);
      hit.holdsVersion = this.holdsVersion;
    }
    return hit;
  }

  /**
   * One page of the free cars matching the filters, plus the colours and models free for the
   * dates before the model and colour filters, and how many match them all.
   */
  search(scope: IndexScope, q: IndexQuery): IndexPage {
    const sorted = this.sortedFor(scope);
    const { positions, distances, holdIndex, holdFrom, holdTo } = sorted;
    const { entries, colorIndex, modelIndex, flags, modelNames, modelByKey } = this.fleet;
    const from = q.from.getTime();
    const to = q.to.getTime();
    const modelText = q.model?.trim().toLowerCase() || undefined;
    // A model the fleet does not have matches nothing.
    const wantModel = modelText === undefined ? -1 : (modelByKey.get(modelText) ?? -2);
    const wantColor = q.color === undefined ? -1 : (COLORS as readonly string[]).indexOf(q.color);
    const wantFlags = q.variant === 'long-range' ? LONG_RANGE : 0;

    // Busy cars: those with a hold the period clashes with (decision 015's one rule, which the
    // exclusion constraint also applies). Only the scope's reservations are visited; the free
    // cars are counted by taking the busy ones away from the scope's counts by model and colour.
    if (this.busyStamp.length < positions.length) this.busyStamp = new Uint32Array(positions.length * 2);
    const stamp = this.busyStamp;
    const generation = (this.stampGeneration = (this.stampGeneration + 1) >>> 0 || 1);
    const free = Int32Array.from(sorted.counts);
    for (let k = 0; k < holdIndex.length; k++) {
      if (clashes(holdFrom[k]!, holdTo[k]!, from, to)) {
        const i = holdIndex[k]!;
        if (stamp[i] === generation) continue;
        stamp[i] = generation;
        const at = positions[i]!;
        free[modelIndex[at]! * COLORS.length + colorIndex[at]!]! -= 1;
      }
    }

    const colors: string[] = [];
    const models: string[] = [];
    let total = 0;
    const longRangeOf = (m: number) => isLongRange(modelNames[m]);
    for (let m = 0; m < modelNames.length; m++) {
      let any = false;
      for (let c = 0; c < COLORS.length; c++) {
        const n = free[m * COLORS.length + c]!;
        if (n === 0) continue;
        any = true;
        if (wantModel !== -1 && m !== wantModel) continue;
        if (q.variant !== undefined && (longRangeOf(m) ? LONG_RANGE : 0) !== wantFlags) continue;
        if (wantColor !== -1 && c !== wantColor) continue;
        total += n;
      }
      if (any) models.push(modelNames[m]!);
    }
    for (let c = 0; c < COLORS.length; c++) {
      for (let m = 0; m < modelNames.length; m++) {
        if (free[m * COLORS.length + c]! > 0) {
          colors.push(COLORS[c]!);
          break;
        }
      }
    }

    // The page: walk the cars in order until it is full.
    const items: IndexPage['items'] = [];
    let seen = 0;
    for (let i = 0; i < positions.length && items.length < q.limit && seen < total; i++) {
      if (stamp[i] === generation) continue;
      const at = positions[i]!;
      if (wantModel !== -1 && modelIndex[at] !== wantModel) continue;
      if (q.variant !== undefined && (flags[at]! & LONG_RANGE) !== wantFlags) continue;
      if (wantColor !== -1 && colorIndex[at] !== wantColor) continue;
      if (seen >= q.offset) items.push({ entry: entries[at]!, distance: distances[i]! });
      seen += 1;
    }
    return { colors, models, total, items };
  }
}
