/**
 * Instants and local wall-clock times. Every instant is a Date (UTC); every place has an
 * IANA time zone; local dates are 'YYYY-MM-DD' and local times 'HH:mm'.
 */

export type LocalDate = string;
export type LocalTime = string;
export interface LocalDateTime {
  date: LocalDate;
  time: LocalTime;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;
export const MS_PER_MINUTE = 60_000;
export const MS_PER_DAY = 86_400_000;

export function isLocalDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}

export function isLocalTime(value: string): boolean {
  return TIME_RE.test(value);
}

/** Zones already known to be valid: each check builds a formatter, which is slow. */
const knownZones = new Set<string>();

export function isTimeZone(value: string): boolean {
  if (knownZones.has(value)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    knownZones.add(value);
    return true;
  } catch {
    return false;
  }
}

function parseDate(date: LocalDate): [number, number, number] {
  const m = DATE_RE.exec(date);
  if (!m) throw new RangeError(`Not a date (YYYY-MM-DD): ${date}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function parseTime(time: LocalTime): [number, number] {
  const m = TIME_RE.exec(time);
  if (!m) throw new RangeError(`Not a time (HH:mm): ${time}`);
  return [Number(m[1]), Number(m[2])];
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Milliseconds of a local date-time as if it were UTC: for wall-clock arithmetic only. */
export function wallClockMs(local: LocalDateTime): number {
  const [y, mo, d] = parseDate(local.date);
  const [h, mi] = parseTime(local.time);
  return Date.UTC(y, mo - 1, d, h, mi);
}

function fromWallClockMs(ms: number): LocalDateTime {
  const t = new Date(ms);
  return {
    date: `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`,
    time: `${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`,
  };
}

export function addDays(date: LocalDate, days: number): LocalDate {
  return fromWallClockMs(wallClockMs({ date, time: '00:00' }) + days * MS_PER_DAY).date;
}

export function addMinutes(local: LocalDateTime, minutes: number): LocalDateTime {
  return fromWallClockMs(wallClockMs(local) + minutes * MS_PER_MINUTE);
}

/** Whole calendar days from a to b (negative when b is earlier). */
export function daysBetween(a: LocalDate, b: LocalDate): number {
  return Math.round((wallClockMs({ date: b, time: '00:00' }) - wallClockMs({ date: a, time: '00:00' })) / MS_PER_DAY);
}

export function compareLocal(a: LocalDateTime, b: LocalDateTime): number {
  return wallClockMs(a) - wallClockMs(b);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * Zone offsets by 15-minute slice of UTC time. Since 1980 every zone's offset is a whole number
 * of minutes and changes only on a quarter hour, so one reading of the clock serves the whole
 * slice; reading it (Intl formatToParts) is the slow part of every date conversion.
 */
const SLICE_MS = 15 * MS_PER_MINUTE;
const CACHE_FROM_MS = Date.UTC(1980, 0, 1);
const CACHE_LIMIT = 100_000;

/** What is read of a zone per slice: its offset (ms) and its short name ('CST'), which changes only with the offset. */
interface SliceValues {
  offsets: number;
  names: string;
}
type SliceKind = keyof SliceValues;
const sliceCaches: { [K in SliceKind]: Map<string, Map<number, SliceValues[K]>> } = {
  offsets: new Map(),
  names: new Map(),
};

/**
 * What a drawing read of the zones it showed: each zone's offsets and short names, by slice. The
 * server sends them with a page's first screen, so the browser takes the screen over without
 * building a date formatter (its first one loads the browser's locale data: 60 ms on a phone).
 */
export type ZoneReadings = Record<string, { [K in SliceKind]: Record<string, SliceValues[K]> }>;

let recording: ZoneReadings | null = null;

/** Runs `draw` (synchronous), and returns what it read of the zones along with its result. */
export function recordZoneReadings<T>(draw: () => T): [T, ZoneReadings] {
  const readings: ZoneReadings = {};
  recording = readings;
  try {
    return [draw(), readings];
  } finally {
    recording = null;
  }
}

function sliceCache<K extends SliceKind>(kind: K, timeZone: string): Map<number, SliceValues[K]> {
  const cache = sliceCaches[kind];
  let zone = cache.get(timeZone);
  if (zone === undefined) cache.set(timeZone, (zone = new Map()));
  if (zone.size >= CACHE_LIMIT) zone.clear();
  return zone;
}

/** Starts the caches from another drawing's readings (the server's, for the same page). */
export function seedZoneReadings(readings: ZoneReadings): void {
  const seed = <K extends SliceKind>(kind: K, timeZone: string, values: Record<string, SliceValues[K]>) => {
    const zone = sliceCache(kind, timeZone);
    for (const [slice, value] of Object.entries(values)) zone.set(Number(slice), value);
  };
  for (const [timeZone, { offsets, names }] of Object.entries(readings)) {
    knownZones.add(timeZone);
    seed('offsets', timeZone, offsets);
    seed('names', timeZone, names);
  }
}

/**
 * The zone's `kind` reading for the slice holding `instant`, read (at the slice's start) only the
 * first time and noted while a drawing is recorded. Null before 1980, where a slice's reading may
 * not hold for all of it: the caller reads the instant itself.
 */
function sliceReading<K extends SliceKind>(
  kind: K,
  instant: Date,
  timeZone: string,
  read: (sliceStart: Date) => SliceValues[K],
): SliceValues[K] | null {
  const t = instant.getTime();
  if (t < CACHE_FROM_MS || !Number.isFinite(t)) return null;
  const slice = Math.floor(t / SLICE_MS);
  const zone = sliceCache(kind, timeZone);
  let value = zone.get(slice);
  if (value === undefined) zone.set(slice, (value = read(new Date(slice * SLICE_MS))));
  if (recording) {
    const noted: Record<string, SliceValues[K]> = (recording[timeZone] ??= { offsets: {}, names: {} })[kind];
    noted[slice] = value;
  }
  return value;
}

function zonedWallMs(instant: Date, timeZone: string): number {
  const offset = sliceReading(
    'offsets',
    instant,
    timeZone,
    (start) => readZonedWallMs(start, timeZone) - start.getTime(),
  );
  return offset === null ? readZonedWallMs(instant, timeZone) : instant.getTime() + offset;
}

const nameFormatters = new Map<string, Intl.DateTimeFormat>();
function readZoneName(instant: Date, timeZone: string): string {
  let f = nameFormatters.get(timeZone);
  if (!f) nameFormatters.set(timeZone, (f = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })));
  return f.formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

/** The zone's short name at an instant, e.g. 'CST' or 'MST'. Throws a RangeError for an unknown zone. */
export function zoneShortName(instant: Date, timeZone: string): string {
  return (
    sliceReading('names', instant, timeZone, (start) => readZoneName(start, timeZone)) ??
    readZoneName(instant, timeZone)
  );
}

function readZonedWallMs(instant: Date, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(instant)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
}

/** Offset of the zone from UTC at an instant, in minutes (e.g. -300 for Chicago in summer). */
export function zoneOffsetMinutes(instant: Date, timeZone: string): number {
  const whole = Math.floor(instant.getTime() / 1000) * 1000;
  return Math.round((zonedWallMs(new Date(whole), timeZone) - whole) / MS_PER_MINUTE);
}

/** The local date and time an instant shows on a clock in the zone. */
export function toLocal(instant: Date, timeZone: string): LocalDateTime {
  return fromWallClockMs(zonedWallMs(instant, timeZone));
}

/**
 * The instant a local date and time denote in a zone. A time skipped by a spring-forward
 * change resolves to the same clock reading after the change (02:30 becomes 03:30); a time
 * repeated by a fall-back change resolves to its first occurrence.
 */
export function toInstant(local: LocalDateTime, timeZone: string): Date {
  const wall = wallClockMs(local);
  const before = zoneOffsetMinutes(new Date(wall - MS_PER_DAY), timeZone);
  const after = zoneOffsetMinutes(new Date(wall + MS_PER_DAY), timeZone);
  const readings = [before, after]
    .map((offset) => wall - offset * MS_PER_MINUTE)
    .filter((t) => zonedWallMs(new Date(t), timeZone) === wall);
  if (readings.length > 0) return new Date(Math.min(...readings));
  // In a spring-forward gap: read the clock with the offset in force before the change.
  return new Date(wall - before * MS_PER_MINUTE);
}

/** Today's date in a zone. */
export function todayIn(now: Date, timeZone: string): LocalDate {
  return toLocal(now, timeZone).date;
}
