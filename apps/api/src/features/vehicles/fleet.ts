/**
 * The search index's fleet in compact columns (decision 097): one typed array per number a search
 * or a result reads, indexed by the car's position (cars in id order), the few strings a car has
 * of its own (VIN, platform id) as UTF-8 bytes in one buffer each, and everything cars share — their model, their
 * lot, their photo, their battery type — once per model, lot, photo or type, by index. A million
 * cars take about 100 MB this way, where one object per car with its model's and lot's fields
 * copied in took over a kilobyte each.
 *
 * Also the search itself over it (`FleetSearch`), with no database, so a test can compare it with
 * a plain filter on generated fleets.
 */
import { clashes } from '@ampere/domain/availability';
import { ACTIVE_RESERVATION_STATUSES, COLORS } from '@ampere/domain/constants';
import { type Variant, isLongRange } from '@ampere/domain/filters';
import { distanceMiles } from '@ampere/domain/vehicle';
import { HoldTable } from './holds.ts';
import { modelView } from './model-view.ts';

export interface FleetCar {
  vehicle_id: number;
  vin: string;
  year: number;
  color: string;
  odometer: number;
  rack_rate: number;
  is_self_serve_booking_allowed: boolean;
  platform_id: string;
  battery_type: string;
  model_id: number;
  location_id: number;
  /** The car's own MONEYSHOT photo (decision 085); without one, its model's in its colour is shown. */
  own_photo: string | null;
}

export interface FleetModel {
  id: number;
  name: string;
  slug: string;
  type: string;
  seating_capacity: number;
  drivetrain: string;
  mile_range: number;
  zero_to_sixty_mph_seconds: number;
  top_speed_mph: number;
}

export interface FleetLocation {
  id: number;
  name: string;
  street: string;
  city: string;
  state: string;
  latitude: number;
  longitude: number;
  timezone: string;
  tax_rate_ppm: number;
  region_id: number;
}

/**
 * The most bytes of cars' results kept (decision 100): room for about 170,000 cars, every car of a
 * fleet of 20,000 and the pages being shown of a million. The buffer starts at a kilobyte a car
 * (pages of memory are taken as they are written) and doubles.
 */
const HEAD_BYTES_MAX = 128 * 1024 * 1024;
const SELF_SERVE = 1;
const LONG_RANGE = 2;

/** A growable typed array: cars arrive a slice at a time and their count is not known up front. */
class Column<T extends Float64Array | Int32Array | Uint16Array | Uint8Array> {
  length = 0;
  constructor(
    public data: T,
    private readonly make: (n: number) => T,
  ) {}
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = this.make(Math.max(1024, this.data.length * 2));
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
  /** The filled part, copied into an array of its own size (the spare room is freed). */
  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}

/**
 * Short strings, one per car, as UTF-8 bytes end to end with each one's start: a million VINs
 * are then two buffers, not a million strings for the garbage collector to trace.
 */
class TextPool {
  private bytes = Buffer.alloc(0);
  private length = 0;
  private readonly starts = new Column(new Int32Array(0), (n) => new Int32Array(n));
  add(text: string): void {
    const size = Buffer.byteLength(text);
    if (this.length + size > this.bytes.length) {
      const bigger = Buffer.alloc(Math.max(64 * 1024, 2 * (this.length + size)));
      this.bytes.copy(bigger, 0, 0, this.length);
      this.bytes = bigger;
    }
    this.starts.push(this.length);
    this.length += this.bytes.write(text, this.length);
  }
  done(): Texts {
    this.starts.push(this.length);
    return new Texts(Buffer.from(this.bytes.subarray(0, this.length)), this.starts.done());
  }
}

/** The strings a `TextPool` collected, by position. */
class Texts {
  constructor(
    private readonly bytes: Buffer,
    private readonly starts: Int32Array,
  ) {}
  at(i: number): string {
    return this.bytes.toString('utf8', this.starts[i]!, this.starts[i + 1]!);
  }
}

/** Gives each distinct value a small number, in order of first appearance. */
class Interner<K> {
  readonly values: K[] = [];
  private readonly index = new Map<K, number>();
  of(value: K): number {
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.index.set(value, i);
    }
    return i;
  }
}

/** Collects cars a slice at a time (in id order) and then builds the `Fleet`. */
export class FleetBuilder {
  private readonly vehicleId = new Column(new Float64Array(0), (n) => new Float64Array(n));
  private readonly year = new Column(new Int32Array(0), (n) => new Int32Array(n));
  private readonly odometer = new Column(new Float64Array(0), (n) => new Float64Array(n));
  private readonly rackRate = new Column(new Float64Array(0), (n) => new Float64Array(n));
  private readonly color = new Column(new Uint8Array(0), (n) => new Uint8Array(n));
  private readonly model = new Column(new Uint16Array(0), (n) => new Uint16Array(n));
  private readonly location = new Column(new Int32Array(0), (n) => new Int32Array(n));
  private readonly image = new Column(new Int32Array(0), (n) => new Int32Array(n));
  private readonly battery = new Column(new Uint16Array(0), (n) => new Uint16Array(n));
  private readonly flags = new Column(new Uint8Array(0), (n) => new Uint8Array(n));
  private readonly vin = new TextPool();
  private readonly platformId = new TextPool();
  private readonly images = new Interner<string | null>();
  private readonly batteries = new Interner<string>();
  private readonly modelSlot: Map<number, number>;
  private readonly locationSlot: Map<number, number>;
  private lastId = -Infinity;

  /** `modelPhoto`: each model's MONEYSHOT drawing by `${model id}:${colour}`. */
  constructor(
    private readonly models: FleetModel[],
    private readonly locations: FleetLocation[],
    private readonly modelPhoto: Map<string, string>,
  ) {
    this.modelSlot = new Map(models.map((m, i) => [m.id, i]));
    this.locationSlot = new Map(locations.map((l, i) => [l.id, i]));
  }

  /** Adds cars in increasing id order; a car whose model or lot is unknown (added since they were read) waits for the next read. */
  add(cars: readonly FleetCar[]): void {
    for (const c of cars) {
      if (c.vehicle_id <= this.lastId) throw new Error('The fleet must be read in increasing id order.');
      const model = this.modelSlot.get(c.model_id);
      const location = this.locationSlot.get(c.location_id);
      const color = (COLORS as readonly string[]).indexOf(c.color);
      if (model === undefined || location === undefined || color < 0) continue;
      this.lastId = c.vehicle_id;
      this.vehicleId.push(c.vehicle_id);
      this.year.push(c.year);
      this.odometer.push(c.odometer);
      this.rackRate.push(c.rack_rate);
      this.color.push(color);
      this.model.push(model);
      this.location.push(location);
      this.image.push(this.images.of(c.own_photo ?? this.modelPhoto.get(`${c.model_id}:${c.color}`) ?? null));
      this.battery.push(this.batteries.of(c.battery_type));
      this.flags.push(
        (c.is_self_serve_booking_allowed ? SELF_SERVE : 0) | (isLongRange(this.models[model]!.name) ? LONG_RANGE : 0),
      );
      this.vin.add(c.vin);
      this.platformId.add(c.platform_id);
    }
  }

  /** `headBytesMax`: the most bytes of cars' results kept (tests make it small). */
  build(headBytesMax?: number): Fleet {
    return new Fleet(
      {
        models: this.models,
        locations: this.locations,
        vehicleId: this.vehicleId.done(),
        year: this.year.done(),
        odometer: this.odometer.done(),
        rackRate: this.rackRate.done(),
        colorIndex: this.color.done(),
        modelSlot: this.model.done(),
        locationSlot: this.location.done(),
        imageSlot: this.image.done(),
        batterySlot: this.battery.done(),
        flags: this.flags.done(),
        vin: this.vin.done(),
        platformId: this.platformId.done(),
        images: this.images.values,
        batteryTypes: this.batteries.values,
      },
      headBytesMax,
    );
  }
}

interface FleetColumns {
  models: FleetModel[];
  locations: FleetLocation[];
  vehicleId: Float64Array;
  year: Int32Array;
  odometer: Float64Array;
  rackRate: Float64Array;
  colorIndex: Uint8Array;
  modelSlot: Uint16Array;
  locationSlot: Int32Array;
  imageSlot: Int32Array;
  batterySlot: Uint16Array;
  flags: Uint8Array;
  vin: Texts;
  platformId: Texts;
  images: (string | null)[];
  batteryTypes: string[];
}

/** The fleet as columns, by position; read-only once built. */
export class Fleet {
  readonly size: number;
  readonly vehicleId: Float64Array;
  readonly colorIndex: Uint8Array;
  /** Each car's model name's number (models sharing a name share it): what the filters and counts use. */
  readonly nameIndex: Uint16Array;
  readonly flags: Uint8Array;
  readonly locationSlot: Int32Array;
  readonly rackRate: Float64Array;
  private readonly vins: Texts;
  readonly locations: FleetLocation[];
  /** Distinct model names, and each one's number by its lower case. */
  readonly modelNames: string[];
  readonly modelByKey: Map<string, number>;
  /** Positions of the cars in each region and in each state, in id order. */
  readonly byRegion: Map<number, Int32Array>;
  readonly byState: Map<string, Int32Array>;
  private readonly c: FleetColumns;
  private readonly modelJson: string[];
  private readonly imagesJson: string[];
  private readonly batteryJson: string[];
  private readonly locationJson: (string | undefined)[];
  /**
   * Cars' result bytes end to end in one buffer, each car's start and end by position (end 0: not
   * kept): no object per car, and no new memory outside the heap once the buffer has grown.
   */
  private heads = Buffer.alloc(0);
  private headsLength = 0;
  private readonly headStart: Int32Array;
  private readonly headEnd: Int32Array;

  constructor(
    columns: FleetColumns,
    private readonly headBytesMax = HEAD_BYTES_MAX,
  ) {
    this.c = columns;
    const n = columns.vehicleId.length;
    this.size = n;
    this.headStart = new Int32Array(n);
    this.headEnd = new Int32Array(n);
    this.vehicleId = columns.vehicleId;
    this.colorIndex = columns.colorIndex;
    this.flags = columns.flags;
    this.locationSlot = columns.locationSlot;
    this.rackRate = columns.rackRate;
    this.vins = columns.vin;
    this.locations = columns.locations;
    const names = new Interner<string>();
    const nameOfSlot = columns.models.map((m) => names.of(m.name));
    this.modelNames = names.values;
    this.modelByKey = new Map(this.modelNames.map((name, i) => [name.toLowerCase(), i]));
    this.nameIndex = new Uint16Array(n);
    for (let i = 0; i < n; i++) this.nameIndex[i] = nameOfSlot[columns.modelSlot[i]!]!;
    this.modelJson = columns.models.map((m) => JSON.stringify(modelView(m)));
    this.imagesJson = columns.images.map((url) => JSON.stringify(url ? [{ view: 'MONEYSHOT', image_url: url }] : []));
    this.batteryJson = columns.batteryTypes.map((b) => JSON.stringify(b));
    this.locationJson = new Array<string | undefined>(columns.locations.length);
    this.byRegion = group(n, (i) => columns.locations[columns.locationSlot[i]!]!.region_id);
    this.byState = group(n, (i) => columns.locations[columns.locationSlot[i]!]!.state);
  }

  /** The car's position, or -1 when it is not in the fleet (cars are in id order). */
  positionOf(vehicleId: number): number {
    const ids = this.vehicleId;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const id = ids[mid]!;
      if (id === vehicleId) return mid;
      if (id < vehicleId) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  vin(at: number): string {
    return this.vins.at(at);
  }

  location(at: number): FleetLocation {
    return this.c.locations[this.c.locationSlot[at]!]!;
  }

  taxRatePpm(at: number): number {
    return this.location(at).tax_rate_ppm;
  }

  /**
   * `itemHead` as UTF-8 bytes, kept for the cars searches show most: in one buffer of at most
   * HEAD_BYTES_MAX, forgotten all at once when it is full (a fleet of 20,000 keeps every car's, as
   * before decision 097; a million keeps the pages being shown). A view of that buffer, which
   * later calls never write over.
   */
  itemHeadBytes(at: number): Buffer {
    const end = this.headEnd[at]!;
    if (end !== 0) return this.heads.subarray(this.headStart[at]!, end);
    const text = this.itemHead(at);
    // A UTF-8 byte per character at least, three at most.
    const most = text.length * 3;
    if (this.headsLength + most > this.heads.length) {
      if (this.heads.length < this.headBytesMax) {
        // Room for a kilobyte a car at first (pages of memory are only taken when written), so a
        // fleet's searches rarely grow it, each growth being new memory outside the heap.
        const size = Math.min(this.headBytesMax, Math.max(64 * 1024, this.size * 1024, this.heads.length * 2));
        const bigger = Buffer.allocUnsafe(Math.max(size, most));
        this.heads.copy(bigger, 0, 0, this.headsLength);
        this.heads = bigger;
      }
      if (this.headsLength + most > this.heads.length) {
        // Full: start a new buffer rather than write over this one, which views handed out still read.
        this.heads = Buffer.allocUnsafe(Math.max(this.headBytesMax, most));
        this.headEnd.fill(0);
        this.headsLength = 0;
      }
    }
    const start = this.headsLength;
    this.headsLength += this.heads.write(text, start);
    this.headStart[at] = start;
    this.headEnd[at] = this.headsLength;
    return this.heads.subarray(start, this.headsLength);
  }

  /**
   * What a search result says of the car apart from distance and price, as JSON missing its
   * closing brace: the same text `JSON.stringify` gives for the item's fields in the contract's
   * order. Built when asked, from the car's columns and the cached text of its model, lot and photo.
   */
  itemHead(at: number): string {
    const c = this.c;
    const slot = c.locationSlot[at]!;
    let location = this.locationJson[slot];
    if (location === undefined) {
      const l = c.locations[slot]!;
      location = this.locationJson[slot] = JSON.stringify({
        id: l.id,
        name: l.name,
        street: l.street,
        city: l.city,
        state: l.state,
        latitude: l.latitude,
        longitude: l.longitude,
        timezone: l.timezone,
      });
    }
    const flags = c.flags[at]!;
    return (
      `{"vin":${JSON.stringify(c.vin.at(at))},"year":${c.year[at]},"color":"${COLORS[c.colorIndex[at]!]}"` +
      `,"odometer":${c.odometer[at]},"rack_rate":${c.rackRate[at]}` +
      `,"is_self_serve_booking_allowed":${(flags & SELF_SERVE) !== 0}` +
      `,"platform_id":${JSON.stringify(c.platformId.at(at))},"battery_type":${this.batteryJson[c.batterySlot[at]!]}` +
      `,"images":${this.imagesJson[c.imageSlot[at]!]},"model":${this.modelJson[c.modelSlot[at]!]},"location":${location}`
    );
  }
}

function group<K>(n: number, keyOf: (i: number) => K): Map<K, Int32Array> {
  const counts = new Map<K, number>();
  for (let i = 0; i < n; i++) {
    const k = keyOf(i);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const lists = new Map<K, Int32Array>();
  const filled = new Map<K, number>();
  for (const [k, count] of counts) {
    lists.set(k, new Int32Array(count));
    filled.set(k, 0);
  }
  for (let i = 0; i < n; i++) {
    const k = keyOf(i);
    const at = filled.get(k)!;
    lists.get(k)![at] = i;
    filled.set(k, at + 1);
  }
  return lists;
}

/** A reservation or staff hold as the index reads it (`reservationChanges`). */
export interface HoldRow {
  id: string;
  vehicle_id: number;
  status: string;
  pickup_at: Date | string;
  blocked_until: Date | string;
}

const ACTIVE = new Set<string>(ACTIVE_RESERVATION_STATUSES);

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
  /** The fleet the positions are of (a fleet read after the search does not change them). */
  fleet: Fleet;
  items: { at: number; distance: number }[];
}

/** Cars sorted by distance are kept for this many search locations. */
const SORTED_CACHE_SIZE = 4_000;

/** A search location's cars in result order, with what a search needs precomputed. */
interface SortedScope {
  /** Fleet positions, nearest first, then cheapest all-in, then by VIN. */
  positions: Int32Array;
  distances: Float64Array;
  /** How many of the scope's cars there are of each model (row) and colour (column). */
  counts: Int32Array;
  /** Every active hold of the scope's cars as (index in `positions`, from, to), as of its region's or state's `holdsVersion`. */
  holdsVersion: number;
  holdIndex: Int32Array;
  holdFrom: Float64Array;
  holdTo: Float64Array;
}

/**
 * A fleet with its cars' holds, and the search over them: per search location the metro's (or
 * state's) cars in result order with their holds in typed arrays, so a search visits its scope's
 * holds and its page, never the whole fleet.
 */
export class FleetSearch {
  /** Every active hold, by its reservation's (or staff hold's) id and by car (decision 100). */
  private readonly holds: HoldTable;
  private readonly sorted = new Map<string, SortedScope>();
  /**
   * Each region's and state's count of hold changes; a scope's list of holds is rebuilt when it is
   * behind its own, so a booking in one metro leaves every other metro's list as it is.
   */
  private readonly regionVersion = new Map<number, number>();
  private readonly stateVersion = new Map<string, number>();
  /** Scratch for one search: position i is busy when busyStamp[i] === stampGeneration. */
  private busyStamp = new Uint32Array(0);
  private stampGeneration = 0;

  constructor(readonly fleet: Fleet) {
    this.holds = new HoldTable(fleet.size);
  }

  /**
   * Reservation and staff-hold rows as read (all active ones, or those changed since a look):
   * an active one takes its car from pickup until blocked_until, any other status frees it. Rows
   * read again with nothing changed change nothing. A hold on a car not in the fleet is kept (so
   * its cancellation is recognised) but takes no car (the next fleet read reads every hold again).
   */
  apply(rows: readonly HoldRow[]): void {
    const holds = this.holds;
    for (const r of rows) {
      const previous = holds.find(r.id);
      const active = ACTIVE.has(r.status);
      const from = new Date(r.pickup_at).getTime();
      const to = new Date(r.blocked_until).getTime();
      if (previous < 0 && !active) continue;
      if (
        previous >= 0 &&
        active &&
        holds.vehicleId[previous] === r.vehicle_id &&
        holds.from[previous] === from &&
        holds.to[previous] === to
      )
        continue;
      if (previous >= 0) {
        this.touched(holds.at[previous]!);
        holds.remove(previous);
      }
      if (active) {
        const at = this.fleet.positionOf(r.vehicle_id);
        holds.add(r.id, at, r.vehicle_id, from, to);
        this.touched(at);
      }
    }
  }

  /** How many holds are kept (for tests). */
  get holdCount(): number {
    return this.holds.size;
  }

  /** The car's holds changed: its region's and state's scopes rebuild their lists. */
  private touched(at: number): void {
    if (at < 0) return;
    const { region_id, state } = this.fleet.location(at);
    this.regionVersion.set(region_id, (this.regionVersion.get(region_id) ?? 0) + 1);
    this.stateVersion.set(state, (this.stateVersion.get(state) ?? 0) + 1);
  }

  /** The scope's cars in result order, cached per search location, with its holds brought up to date. */
  private sortedFor(scope: IndexScope): SortedScope {
    const fleet = this.fleet;
    const key =
      scope.state !== undefined ? `s:${scope.state}:${scope.origin.id}` : `r:${scope.regionId}:${scope.origin.id}`;
    let hit = this.sorted.get(key);
    if (!hit) {
      const cars =
        (scope.state !== undefined ? fleet.byState.get(scope.state) : fleet.byRegion.get(scope.regionId!)) ??
        new Int32Array(0);
      // Cars of a lot share its place and tax: one distance per lot.
      const lotDistance = new Map<number, number>();
      const withDistance = Array.from(cars, (at) => {
        const slot = fleet.locationSlot[at]!;
        let distance = lotDistance.get(slot);
        if (distance === undefined) lotDistance.set(slot, (distance = distanceMiles(scope.origin, fleet.location(at))));
        return { at, distance, price: fleet.rackRate[at]! * (1_000_000 + fleet.taxRatePpm(at)), vin: fleet.vin(at) };
      });
      withDistance.sort((a, b) => a.distance - b.distance || a.price - b.price || (a.vin < b.vin ? -1 : 1));
      const counts = new Int32Array(fleet.modelNames.length * COLORS.length);
      for (const { at } of withDistance) counts[fleet.nameIndex[at]! * COLORS.length + fleet.colorIndex[at]!]! += 1;
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
    const version =
      (scope.state !== undefined ? this.stateVersion.get(scope.state) : this.regionVersion.get(scope.regionId!)) ?? 0;
    if (hit.holdsVersion !== version) {
      const { firstOf, next, from, to } = this.holds;
      const { positions } = hit;
      let n = 0;
      for (let i = 0; i < positions.length; i++) for (let s = firstOf[positions[i]!]!; s >= 0; s = next[s]!) n += 1;
      const holdIndex = new Int32Array(n);
      const holdFrom = new Float64Array(n);
      const holdTo = new Float64Array(n);
      let k = 0;
      for (let i = 0; i < positions.length; i++)
        for (let s = firstOf[positions[i]!]!; s >= 0; s = next[s]!) {
          holdIndex[k] = i;
          holdFrom[k] = from[s]!;
          holdTo[k] = to[s]!;
          k += 1;
        }
      hit.holdIndex = holdIndex;
      hit.holdFrom = holdFrom;
      hit.holdTo = holdTo;
      hit.holdsVersion = version;
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
    const fleet = this.fleet;
    const { colorIndex, nameIndex, flags, modelNames, modelByKey } = fleet;
    const from = q.from.getTime();
    const to = q.to.getTime();
    const modelText = q.model?.trim().toLowerCase() || undefined;
    // A model the fleet does not have matches nothing.
    const wantModel = modelText === undefined ? -1 : (modelByKey.get(modelText) ?? -2);
    const wantColor = q.color === undefined ? -1 : (COLORS as readonly string[]).indexOf(q.color);
    const wantLongRange = q.variant === 'long-range' ? LONG_RANGE : 0;

    // Busy cars: those with a hold the period clashes with (decision 015's one rule, which the
    // exclusion constraint also applies). Only the scope's holds are visited; the free cars are
    // counted by taking the busy ones away from the scope's counts by model and colour.
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
        free[nameIndex[at]! * COLORS.length + colorIndex[at]!]! -= 1;
      }
    }

    const colors: string[] = [];
    const models: string[] = [];
    let total = 0;
    for (let m = 0; m < modelNames.length; m++) {
      let any = false;
      const longRange = isLongRange(modelNames[m]) ? LONG_RANGE : 0;
      for (let c = 0; c < COLORS.length; c++) {
        const n = free[m * COLORS.length + c]!;
        if (n === 0) continue;
        any = true;
        if (wantModel !== -1 && m !== wantModel) continue;
        if (q.variant !== undefined && longRange !== wantLongRange) continue;
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
      if (wantModel !== -1 && nameIndex[at] !== wantModel) continue;
      if (q.variant !== undefined && (flags[at]! & LONG_RANGE) !== wantLongRange) continue;
      if (wantColor !== -1 && colorIndex[at] !== wantColor) continue;
      if (seen >= q.offset) items.push({ at, distance: distances[i]! });
      seen += 1;
    }
    return { colors, models, total, fleet, items };
  }
}
