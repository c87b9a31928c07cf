/** Pure helpers for the map view: no MapLibre, no DOM, so they can be unit tested. */
import type { MapBounds, MapPoint } from './types.ts';

export interface PixelOffset {
  x: number;
  y: number;
}

export interface FanOutOptions {
  /** Points closer than this, in degrees on both axes, count as one spot (about 10 m by default). */
  toleranceDegrees?: number;
  /** Minimum distance in pixels between two pins fanned out from one spot. */
  spacingPx?: number;
  /** Horizontal stretch (≥ 1): price pills are wider than tall, so the fan is an ellipse. */
  aspect?: number;
}

const DEFAULT_TOLERANCE = 0.0001;
const DEFAULT_SPACING = 20;
const DEFAULT_ASPECT = 2.5;

/**
 * The n-th slot of a fan around a spot: slot 0 is the spot itself, then rings of growing
 * radius. Ring k has radius k·spacing and holds ⌊2πk⌋ slots, so neighbours on a ring are at
 * least `spacing` apart along the arc and rings are `spacing` apart.
 */
export function fanSlot(n: number, spacingPx: number, aspect = 1): PixelOffset {
  if (n <= 0) return { x: 0, y: 0 };
  let ring = 1;
  let first = 1;
  while (n >= first + Math.floor(2 * Math.PI * ring)) {
    first += Math.floor(2 * Math.PI * ring);
    ring += 1;
  }
  const slots = Math.floor(2 * Math.PI * ring);
  // Start straight up and go clockwise; odd rings shift half a slot so rings do not line up.
  const angle = -Math.PI / 2 + (2 * Math.PI * (n - first + (ring % 2 === 0 ? 0.5 : 0))) / slots;
  const radius = ring * spacingPx;
  return { x: round(Math.cos(angle) * radius * aspect), y: round(Math.sin(angle) * radius) };
}

function round(v: number): number {
  const r = Math.round(v * 10) / 10;
  return Object.is(r, -0) ? 0 : r;
}

/**
 * Pixel offsets that keep pins at the same (or nearly the same) coordinates from covering
 * each other: the first pin at a spot stays put, later ones fan out around it. Offsets are in
 * input order; a pin alone at its spot gets {0, 0}.
 */
export function fanOutOffsets(points: readonly MapPoint[], options: FanOutOptions = {}): PixelOffset[] {
  const tolerance = options.toleranceDegrees ?? DEFAULT_TOLERANCE;
  const spacing = options.spacingPx ?? DEFAULT_SPACING;
  const aspect = Math.max(1, options.aspect ?? DEFAULT_ASPECT);
  const spots: { anchor: MapPoint; count: number }[] = [];
  return points.map((p) => {
    let spot = spots.find((s) => Math.abs(s.anchor.latitude - p.latitude) <= tolerance && Math.abs(s.anchor.longitude - p.longitude) <= tolerance);
    if (!spot) {
      spot = { anchor: p, count: 0 };
      spots.push(spot);
    }
    const offset = fanSlot(spot.count, spacing, aspect);
    spot.count += 1;
    return offset;
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

export type PopupAnchor = 'center' | 'top' | 'bottom' | 'left' | 'right' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

/**
 * Where a popup sits relative to a pin anchored by its bottom edge and moved by `pin`: above
 * the pill when the popup opens upwards, just below the point when it opens downwards, beside
 * the pill otherwise, so it never covers the pill it belongs to.
 */
export function popupOffsets(pin: PixelOffset, size: { width: number; height: number }): Record<PopupAnchor, [number, number]> {
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
