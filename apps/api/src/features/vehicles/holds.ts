/**
 * The active holds of the search index in typed arrays (decision 100): no object per hold, so a
 * million cars' 350,000 holds add nothing for the garbage collector to trace at a full collection.
 *
 * Each hold has a slot: its car's position, its vehicle id, its period (ms since the epoch) and the
 * next slot of the same car (a list per car, its first slot in `firstOf`). A hold's id — a
 * reservation's or staff hold's UUID — is kept as four 32-bit words and found through an
 * open-addressing table of slot numbers; an id that is not a UUID (none in the database, but the
 * index takes any text) goes through a plain `Map` instead.
 */

const NONE = -1;
/** Ids of the form 8-4-4-4-12 hex digits. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One hold as `HoldTable.get` reads it back. */
export interface HoldEntry {
  at: number;
  vehicleId: number;
  from: number;
  to: number;
}

export class HoldTable {
  /** The first hold slot of each car (by fleet position), NONE when it has none. */
  readonly firstOf: Int32Array;
  /** Per slot: the next slot of the same car (or of the free list), the car's position (NONE: not in the fleet). */
  next = new Int32Array(0);
  at = new Int32Array(0);
  vehicleId = new Float64Array(0);
  from = new Float64Array(0);
  to = new Float64Array(0);
  /** Per slot: the id's four words (UUIDs), and whether the slot's id is kept in `otherIds` instead. */
  private key = new Uint32Array(0);
  private keyIsOther = new Uint8Array(0);
  /** Slots never used start here; freed ones are listed from `freeHead` through `next`. */
  private highWater = 0;
  private freeHead = NONE;
  /** Open addressing with linear probing: slot + 1, 0 empty. */
  private table = new Int32Array(16);
  private inTable = 0;
  private readonly otherIds = new Map<string, number>();
  private readonly otherIdOf = new Map<number, string>();
  private readonly words = new Uint32Array(4);
  /** How many holds are kept. */
  size = 0;

  constructor(cars: number) {
    this.firstOf = new Int32Array(cars).fill(NONE);
  }

  /** The slot of the hold with this id, or NONE. */
  find(id: string): number {
    if (!parseUuid(id, this.words)) return this.otherIds.get(id) ?? NONE;
    const w = this.words;
    const mask = this.table.length - 1;
    for (let i = hash(w[0]!, w[1]!, w[2]!, w[3]!) & mask; ; i = (i + 1) & mask) {
      const entry = this.table[i]!;
      if (entry === 0) return NONE;
      const k = (entry - 1) * 4;
      if (this.key[k] === w[0] && this.key[k + 1] === w[1] && this.key[k + 2] === w[2] && this.key[k + 3] === w[3])
        return entry - 1;
    }
  }

  /** Keeps a hold (its id not kept yet) on the car at `at` (NONE: a car not in the fleet); returns its slot. */
  add(id: string, at: number, vehicleId: number, from: number, to: number): number {
    const slot = this.takeSlot();
    this.at[slot] = at;
    this.vehicleId[slot] = vehicleId;
    this.from[slot] = from;
    this.to[slot] = to;
    if (parseUuid(id, this.words)) {
      this.key.set(this.words, slot * 4);
      this.keyIsOther[slot] = 0;
      if ((this.inTable + 1) * 2 > this.table.length) this.growTable();
      this.insert(slot);
      this.inTable += 1;
    } else {
      this.keyIsOther[slot] = 1;
      this.otherIds.set(id, slot);
      this.otherIdOf.set(slot, id);
    }
    if (at !== NONE) {
      this.next[slot] = this.firstOf[at]!;
      this.firstOf[at] = slot;
    } else this.next[slot] = NONE;
    this.size += 1;
    return slot;
  }

  /** Forgets the hold in `slot`. */
  remove(slot: number): void {
    const at = this.at[slot]!;
    if (at !== NONE) {
      // Unlink it from its car's list (a car has a few holds at most).
      let prev = NONE;
      for (let s = this.firstOf[at]!; s !== NONE; prev = s, s = this.next[s]!) {
        if (s !== slot) continue;
        if (prev === NONE) this.firstOf[at] = this.next[s]!;
        else this.next[prev] = this.next[s]!;
        break;
      }
    }
    if (this.keyIsOther[slot]) {
      this.otherIds.delete(this.otherIdOf.get(slot)!);
      this.otherIdOf.delete(slot);
    } else {
      this.deleteFromTable(slot);
      this.inTable -= 1;
    }
    this.at[slot] = NONE;
    this.next[slot] = this.freeHead;
    this.freeHead = slot;
    this.size -= 1;
  }

  get(slot: number): HoldEntry {
    return { at: this.at[slot]!, vehicleId: this.vehicleId[slot]!, from: this.from[slot]!, to: this.to[slot]! };
  }

  private takeSlot(): number {
    if (this.freeHead !== NONE) {
      const slot = this.freeHead;
      this.freeHead = this.next[slot]!;
      return slot;
    }
    if (this.highWater === this.at.length) this.growSlots();
    return this.highWater++;
  }

  private growSlots(): void {
    const n = Math.max(1024, this.at.length * 2);
    const grow = <T extends Int32Array | Float64Array | Uint32Array | Uint8Array>(old: T, make: (n: number) => T) => {
      const bigger = make(n);
      bigger.set(old);
      return bigger;
    };
    this.next = grow(this.next, (k) => new Int32Array(k));
    this.at = grow(this.at, (k) => new Int32Array(k));
    this.vehicleId = grow(this.vehicleId, (k) => new Float64Array(k));
    this.from = grow(this.from, (k) => new Float64Array(k));
    this.to = grow(this.to, (k) => new Float64Array(k));
    this.keyIsOther = grow(this.keyIsOther, (k) => new Uint8Array(k));
    const key = new Uint32Array(n * 4);
    key.set(this.key);
    this.key = key;
  }

  private home(slot: number, mask: number): number {
    const k = slot * 4;
    return hash(this.key[k]!, this.key[k + 1]!, this.key[k + 2]!, this.key[k + 3]!) & mask;
  }

  private insert(slot: number): void {
    const mask = this.table.length - 1;
    let i = this.home(slot, mask);
    while (this.table[i] !== 0) i = (i + 1) & mask;
    this.table[i] = slot + 1;
  }

  private growTable(): void {
    const old = this.table;
    this.table = new Int32Array(old.length * 2);
    for (let i = 0; i < old.length; i++) if (old[i] !== 0) this.insert(old[i]! - 1);
  }

  /** Linear probing's deletion by shifting back the entries after it, so no tombstones build up. */
  private deleteFromTable(slot: number): void {
    const table = this.table;
    const mask = table.length - 1;
    let hole = this.home(slot, mask);
    while (table[hole] !== slot + 1) hole = (hole + 1) & mask;
    for (let j = (hole + 1) & mask; table[j] !== 0; j = (j + 1) & mask) {
      const home = this.home(table[j]! - 1, mask);
      // The entry at j may fill the hole when its home is not cyclically within (hole, j].
      const stays = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (stays) continue;
      table[hole] = table[j]!;
      hole = j;
    }
    table[hole] = 0;
  }
}

function hex(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 32;
  return lower - 87;
}

/** A UUID's 128 bits into four words; false when the text is not a UUID. */
function parseUuid(id: string, out: Uint32Array): boolean {
  if (id.length !== 36 || !UUID.test(id)) return false;
  let word = 0;
  let digits = 0;
  let w = 0;
  for (let i = 0; i < 36; i++) {
    const code = id.charCodeAt(i);
    if (code === 45) continue;
    word = ((word << 4) | hex(code)) >>> 0;
    if (++digits === 8) {
      out[w++] = word;
      word = 0;
      digits = 0;
    }
  }
  return true;
}

function hash(a: number, b: number, c: number, d: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ b ^ (h >>> 15), 0xc2b2ae35);
  h = Math.imul(h ^ c ^ (h >>> 13), 0x27d4eb2d);
  h = Math.imul(h ^ d ^ (h >>> 16), 0x85ebca6b);
  return (h ^ (h >>> 15)) >>> 0;
}
