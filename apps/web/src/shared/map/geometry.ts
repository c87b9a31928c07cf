/** Pure helpers for the map view: no MapLibre, no DOM, so they can be unit tested. */
import type { MapBounds, MapPoint } from './types.ts';

export interface PixelOffset {
  x: number;
  y: number;
}

const DEFAULT_TOLERANCE = 0.0001;

function round(v: number): number {
  const r = Math.round(v * 10) / 10;
  return Object.is(r, -0) ? 0 : r;
}

export interface StackOptions {
  /** Points closer than this, in degrees on both axes, count as one spot (about 10 m by default). */
  toleranceDegrees?: number;
  rowPx?: number;
  columnPx?: number;
  perColumn?: number;
}

/**
 * Pixel offsets for pins that share a spot even at the last zoom (cars parked at one lot):
 * they stand in columns of `perColumn`, centred on the spot, one row and one pill width
 * apart, so none covers another. A pin alone at its spot gets {0, 0}. Offsets are in input order.
 */
export function stackOffsets(points: readonly MapPoint[], options: StackOptions = {}): PixelOffset[] {
  const tolerance = options.toleranceDegrees ?? DEFAULT_TOLERANCE;
  const row = options.rowPx ?? 30;
  const column = options.columnPx ?? 108;
  const perColumn = Math.max(1, options.perColumn ?? 5);
  const spots: { anchor: MapPoint; members: number[] }[] = [];
  points.forEach((p, i) => {
    const spot = spots.find(
      (s) =>
        Math.abs(s.anchor.latitude - p.latitude) <= tolerance &&
        Math.abs(s.anchor.longitude - p.longitude) <= tolerance,
    );
    if (spot) spot.members.push(i);
    else spots.push({ anchor: p, members: [i] });
  });
  const out: PixelOffset[] = points.map(() => ({ x: 0, y: 0 }));
  for (const { members } of spots) {
    if (members.length < 2) continue;
    const columns = Math.ceil(members.length / perColumn);
    const rows = Math.min(members.length, perColumn);
    members.forEach((index, n) => {
      const c = Math.floor(n / perColumn);
      const r = n % perColumn;
      out[index] = { x: round((c - (columns - 1) / 2) * column), y: round((r - (rows - 1) / 2) * row) };
    });
  }
  return out;
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
