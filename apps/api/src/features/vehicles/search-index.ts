import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { type SearchScope, allSearchScopes, getSearchScope } from '../search/service.ts';
import { FleetBuilder, FleetSearch, type IndexPage, type IndexQuery, type IndexScope } from './fleet.ts';
import * as repo from './repository.ts';

export type { IndexPage, IndexQuery, IndexScope } from './fleet.ts';

export interface SearchIndexOptions {
  /** How old the view of reservations may be before a search waits for a fresh look (0: always look). */
  maxStalenessMs: number;
  /** How often the fleet and every reservation are read again, beside the searches (decision 098). */
  fleetReloadMs: number;
  /** Fleets up to this many cars are read again before a search answers after a change (default WAIT_FOR_FLEET_READ_UP_TO). */
  waitForFleetReadUpTo?: number;
}

/**
 * A look re-reads changes this far before the previous look (by the database's clock), so a
 * reservation written by a transaction that began earlier but committed later is still seen.
 */
const CHANGE_WINDOW_MS = 5_000;
/** Cars read per query when the fleet is read (decision 097): a million never sit in one result. */
const FLEET_SLICE = 20_000;
/**
 * Up to this many cars, a fleet change makes the next search wait for the fleet to be read again
 * (a second at most); beyond, the read runs beside the searches, which go on with the fleet in hand
 * until it is ready (decision 098).
 */
export const WAIT_FOR_FLEET_READ_UP_TO = 100_000;

/**
 * The fleet and its active reservations, held in memory so a search needs no database round trip.
 *
 * Searches are advisory: booking is guarded by the database's exclusion constraint, so a search
 * may lag the database by at most `maxStalenessMs` (and this process's own bookings call
 * `markStale`). Reservations are read incrementally by `updated_at`, re-reading a short window to
 * catch transactions that committed out of order. A change to the fleet (here, or in another
 * process: `fleet_version`, decision 083) makes the next search wait for the fleet to be read
 * again, up to WAIT_FOR_FLEET_READ_UP_TO cars; a larger fleet is read beside the searches, which go
 * on with the fleet in hand until the new one is ready (decision 098). Every `fleetReloadMs` the
 * fleet and every reservation are read again beside the searches; that also drops anything deleted. The fleet is kept in compact columns (`fleet.ts`, decision 097). Every API
 * process keeps its own index.
 */
export class SearchIndex {
  private current = new FleetSearch(new FleetBuilder([], [], new Map()).build());
  private loaded = false;
  private scopes = new Map<number, SearchScope>();
  private fleetLoadedAt = -Infinity;
  private holdsCheckedAt = -Infinity;
  /** The database's clock when the previous look (or the fleet read in hand) began. */
  private lastLookAt: Date | null = null;
  /** The fleet read under way, and the look for reservation changes under way: each shared by every caller. */
  private fleetRead: Promise<void> | null = null;
  private look: Promise<void> | null = null;
  /** The fleet_version the fleet in hand was read at, and the one the read under way is reading. */
  private fleetVersion: string | null = null;
  private readingVersion: string | null = null;
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
   * The fleet is read again (a car added, edited or retired in this process's console, decision
   * 083): before the next search answers, or beside the searches for a large fleet (decision 098).
   * A read already under way may predate the change, so the next one starts after it.
   */
  markFleetStale(): void {
    this.fleetDirty = true;
  }

  /** Brings the index within its staleness bound; concurrent callers share each read. */
  async ensureFresh(): Promise<void> {
    if (!this.loaded || (this.fleetDirty && this.waitsForFleetReads())) await this.readChangedFleet();
    else if (this.fleetDirty || performance.now() - this.fleetLoadedAt >= this.options.fleetReloadMs)
      this.readInBackground();
    if (performance.now() - this.holdsCheckedAt >= this.options.maxStalenessMs) await this.lookForChanges();
  }

  /** A fleet this size is read again before the next search answers (decision 098). */
  private waitsForFleetReads(): boolean {
    return this.current.fleet.size <= (this.options.waitForFleetReadUpTo ?? WAIT_FOR_FLEET_READ_UP_TO);
  }

  /** Resolves once no read is under way (for tests: a fleet read in the background has finished). */
  async idle(): Promise<void> {
    while (this.fleetRead ?? this.look) await (this.fleetRead ?? this.look)!.catch(() => undefined);
  }

  /** Starts a fleet read beside the searches; with one under way, a change waits for the next. */
  private readInBackground(): void {
    if (this.fleetRead) return;
    this.fleetDirty = false;
    void this.readFleet(true).catch(() => {
      // Tried again by the next search.
      this.fleetDirty = true;
    });
  }

  /** Reads the fleet, after any read under way (it may have begun before the change). */
  private async readChangedFleet(): Promise<void> {
    for (;;) {
      if (this.fleetRead) {
        await this.fleetRead;
        continue;
      }
      if (!this.fleetDirty && this.loaded) return;
      this.fleetDirty = false;
      await this.readFleet(false);
    }
  }

  private cutoff(): Date {
    return new Date(this.clock().getTime() - 2 * 86_400_000);
  }

  /** Every car, a slice at a time, into columns, with their models, lots and photos. */
  private async readCars(): Promise<FleetSearch> {
    const [models, locations, photos] = await Promise.all([
      repo.listModels(this.db),
      repo.locationsForIndex(this.db),
      repo.modelPhotosForIndex(this.db),
    ]);
    const modelPhoto = new Map(photos.map((p) => [`${p.model_id}:${p.color}`, p.image_url]));
    const builder = new FleetBuilder(models, locations, modelPhoto);
    let after = 0;
    for (;;) {
      const slice = await repo.fleetSliceForIndex(this.db, after, FLEET_SLICE);
      builder.add(slice);
      if (slice.length < FLEET_SLICE) break;
      after = slice[slice.length - 1]!.vehicle_id;
    }
    return new FleetSearch(builder.build());
  }

  /**
   * Reads the fleet and every active reservation, then puts them in place of the ones in hand.
   * In the background (the periodic read) the reservations it read may be behind by the time it
   * is ready, so the next search looks for changes first.
   */
  private readFleet(background: boolean): Promise<void> {
    const run = async () => {
      const startedAt = performance.now();
      const lookAt = await repo.databaseNow(this.db);
      // Read before the fleet: a change committed meanwhile moves the version past this one.
      const version = await repo.fleetVersion(this.db);
      this.readingVersion = version;
      const [search, reservations, scopes] = await Promise.all([
        this.readCars(),
        repo.reservationChanges(this.db, null, this.cutoff()),
        allSearchScopes(this.db),
      ]);
      search.apply(reservations);
      this.scopes = new Map(scopes.map((s) => [s.option.id, s]));
      this.current = search;
      this.loaded = true;
      this.fleetVersion = version;
      this.lastLookAt = lookAt;
      this.fleetLoadedAt = startedAt;
      this.holdsCheckedAt = background ? -Infinity : startedAt;
    };
    const read = run().finally(() => {
      this.fleetRead = null;
      this.readingVersion = null;
    });
    this.fleetRead = read;
    return read;
  }

  private lookForChanges(): Promise<void> {
    this.look ??= this.readChanges().finally(() => {
      this.look = null;
    });
    return this.look;
  }

  /** Reservation changes since the previous look, and whether the fleet moved (decision 083). */
  private async readChanges(): Promise<void> {
    const startedAt = performance.now();
    const search = this.current;
    const lookAt = await repo.databaseNow(this.db);
    const since = this.lastLookAt ? new Date(this.lastLookAt.getTime() - CHANGE_WINDOW_MS) : null;
    const [changes, version] = await Promise.all([
      repo.reservationChanges(this.db, since, this.cutoff()),
      repo.fleetVersion(this.db),
    ]);
    search.apply(changes);
    if (version !== this.fleetVersion) {
      // A car or a lot changed, here or in another API process: read the whole fleet again, before
      // answering up to WAIT_FOR_FLEET_READ_UP_TO cars, else beside the searches (decision 098).
      if (this.waitsForFleetReads()) {
        this.fleetDirty = true;
        return this.readChangedFleet();
      }
      if (version !== this.readingVersion) {
        this.fleetDirty = true;
        this.readInBackground();
      }
    }
    // A fleet read that finished meanwhile decides where the next look starts.
    if (this.current !== search) return;
    this.lastLookAt = lookAt;
    this.holdsCheckedAt = startedAt;
  }

  /** A search location and its scope; one added since the last fleet read is looked up (404 if unknown). */
  async scope(id: number): Promise<SearchScope> {
    return this.scopes.get(id) ?? getSearchScope(this.db, id);
  }

  /**
   * One page of the free cars matching the filters, plus the colours and models free for the
   * dates before the model and colour filters, and how many match them all.
   */
  search(scope: IndexScope, q: IndexQuery): IndexPage {
    return this.current.search(scope, q);
  }
}
