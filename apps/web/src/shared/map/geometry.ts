/** Pure helpers for the map view: no MapLibre, no DOM, so they can be unit tested. */
import type { MapBounds, MapPoint } from './types.ts';

export interface PixelOffset {
  x: number;
  y: number;
}

const DEFAULT_TOLERANCE = 0.0001;

/**
 * Groups points by spot: the same `place` key, or (without one) the same place within about
 * 10 m. Cars parked at one lot share a spot and so one pin. Groups keep input order.
 */
export function groupBySpot<T extends MapPoint & { place?: { id: string } | undefined }>(
  points: readonly T[],
  toleranceDegrees = DEFAULT_TOLERANCE,
): { key: string; members: T[] }[] {
  const spots: { key: string; anchor: T; members: T[] }[] = [];
  for (const p of points) {
    const spot = spots.find((s) =>
      p.place && s.anchor.place
        ? p.place.id === s.anchor.place.id
        : !p.place &&
          !s.anchor.place &&
          Math.abs(s.anchor.latitude - p.latitude) <= toleranceDegrees &&
          Math.abs(s.anchor.longitude - p.longitude) <= toleranceDegrees,
    );
    if (spot) spot.members.push(p);
    else
      spots.push({ key: p.place ? `place:${p.place.id}` : `at:${p.latitude},${p.longitude}`, anchor: p, members: [p] });
  }
  return spots.map(({ key, members }) => ({ key, members }));
}

export interface PixelBox {
  /** Where the pin's anchor (the middle of its bottom edge) falls on the screen. */
  x: number;
  y: number;
  width: number;
  height: number;
}

function round(v: number): number {
  const r = Math.round(v * 10) / 10;
  return Object.is(r, -0) ? 0 : r;
}

/** Nearest first: the spot itself, then one row up or down, then beside, then further out. */
function candidates(rings: number): { dx: number; dy: number }[] {
  const out: { dx: number; dy: number }[] = [];
  for (let r = 0; r <= rings; r += 1)
    for (let dy = -r; dy <= r; dy += 1)
      for (let dx = -r; dx <= r; dx += 1) if (Math.max(Math.abs(dx), Math.abs(dy)) === r) out.push({ dx, dy });
  return out.sort((a, b) => Math.abs(a.dx) * 3 + Math.abs(a.dy) - (Math.abs(b.dx) * 3 + Math.abs(b.dy)));
}
const CANDIDATES = candidates(4);

/**
 * Pixel offsets so that no two pins cover each other at the current zoom (spec 9: overlapping
 * pins are offset). Pins are placed in input order; each stays on its spot if it is free, else
 * moves by whole rows (and, when a column is full, whole pin widths) to the nearest free place.
 */
export function spreadOffsets(boxes: readonly PixelBox[], gap = 3): PixelOffset[] {
  const placed: { left: number; top: number; right: number; bottom: number }[] = [];
  const at = (b: PixelBox, c: { dx: number; dy: number }) => {
    const left = b.x - b.width / 2 + c.dx * (b.width + gap);
    const top = b.y - b.height + c.dy * (b.height + gap);
    return { left, top, right: left + b.width, bottom: top + b.height };
  };
  return boxes.map((b) => {
    const free = CANDIDATES.find((c) => {
      const r = at(b, c);
      // Closer than `gap` counts as touching: the renderer rounds each pin to whole pixels.
      return !placed.some(
        (p) => r.left < p.right + gap && p.left < r.right + gap && r.top < p.bottom + gap && p.top < r.bottom + gap,
      );
    });
    const chosen = free ?? CANDIDATES[0]!;
    placed.push(at(b, chosen));
    return { x: round(chosen.dx * (b.width + gap)), y: round(chosen.dy * (b.height + gap)) };
  });
}

function wrapLongitude(lng: number): number {
  if (lng >= -180 && lng <= 180) return lng;
  const wrapped = ((((lng + 180) % 360) + 360) % 360) - 180;
  return wrapped === -180 && lng > 0 ? 180 : wrapped;
}

/**
 * Bounds as the renderer reports them (longitudes may run past ±180 after panning across the
 * antimeridian) brought back to [-180, 180]; a view wider than the world covers every longitude.
 */
export function normaliseBounds(raw: MapBounds): MapBounds {
  const north = Math.min(90, raw.north);
  const south = Math.max(-90, raw.south);
  if (raw.east - raw.west >= 360) return { north, south, west: -180, east: 180 };
  return { north, south, west: wrapLongitude(raw.west), east: wrapLongitude(raw.east) };
}

/** True when two centres are the same place, so a re-render does not restart a camera move. */
export function samePoint(a: MapPoint, b: MapPoint, tolerance = 1e-7): boolean {
  return Math.abs(a.latitude - b.latitude) <= tolerance && Math.abs(a.longitude - b.longitude) <= tolerance;
}

export type PopupAnchor =
  'center' | 'top' | 'bottom' | 'left' | 'right' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

/**
 * Where a popup sits relative to a pin anchored by its bottom edge and moved by `pin`: above
 * the pill when the popup opens upwards, just below the point when it opens downwards, beside
 * the pill otherwise, so it never covers the pill it belongs to.
 */
export function popupOffsets(
  pin: PixelOffset,
  size: { width: number; height: number },
): Record<PopupAnchor, [number, number]> {
  const halfWidth = size.width / 2;
  const middle = pin.y - size.height / 2;
  const gap = 4;
  return {
    center: [pin.x, pin.y - size.height - gap],
    bottom: [pin.x, pin.y - size.height - gap],
    'bottom-left': [pin.x, pin.y - size.height - gap],
    'bottom-right': [pin.x, pin.y - size.height - gap],
    top: [pin.x, pin.y + gap],
    'top-left': [pin.x, pin.y + gap],
    'top-right': [pin.x, pin.y + gap],
    left: [pin.x + halfWidth + gap, middle],
    right: [pin.x - halfWidth - gap, middle],
  };
}

/** MapLibre's tile size: at zoom z the world is 512 × 2^z pixels wide. */
const WORLD_TILE_PX = 512;

/**
 * Where a point falls on a map of this size, centre and zoom (Web Mercator, as MapLibre draws it,
 * with no rotation or pitch): lets the pins be drawn before the map itself has loaded.
 */
export function projectToScreen(
  p: MapPoint,
  view: { center: MapPoint; zoom: number; width: number; height: number },
): { x: number; y: number } {
  const world = WORLD_TILE_PX * 2 ** view.zoom;
  const x = (lng: number) => ((lng + 180) / 360) * world;
  const y = (lat: number) => {
    const clamped = Math.max(-85.0511, Math.min(85.0511, lat));
    return ((1 - Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360)) / Math.PI) / 2) * world;
  };
  return {
    x: x(p.longitude) - x(view.center.longitude) + view.width / 2,
    y: y(p.latitude) - y(view.center.latitude) + view.height / 2,
  };
}
