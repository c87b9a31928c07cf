import { describe, expect, it } from 'vitest';
import { fanOutOffsets, fanSlot, normaliseBounds, popupOffsets, samePoint } from './geometry.ts';

const nashville = { latitude: 36.1627, longitude: -86.7816 };
const distance = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);

describe('overlapping pins are offset (spec 2, Search results)', () => {
  it('a pin alone at its spot is not moved', () => {
    const offsets = fanOutOffsets([nashville, { latitude: 36.2, longitude: -86.7 }]);
    expect(offsets).toEqual([{ x: 0, y: 0 }, { x: 0, y: 0 }]);
  });

  it('pins at identical coordinates each get a different offset, the first staying on the spot', () => {
    const offsets = fanOutOffsets([nashville, nashville, nashville]);
    expect(offsets[0]).toEqual({ x: 0, y: 0 });
    expect(new Set(offsets.map((o) => `${o.x},${o.y}`)).size).toBe(3);
  });

  it('pins a few metres apart count as one spot and are fanned out', () => {
    const nearby = { latitude: nashville.latitude + 0.00003, longitude: nashville.longitude - 0.00004 };
    const [, second] = fanOutOffsets([nashville, nearby]);
    expect(distance(second!, { x: 0, y: 0 })).toBeGreaterThan(0);
  });

  it('pins at different spots are fanned out independently', () => {
    const other = { latitude: 36.05, longitude: -86.9 };
    const offsets = fanOutOffsets([nashville, other, nashville, other]);
    expect(offsets[0]).toEqual({ x: 0, y: 0 });
    expect(offsets[1]).toEqual({ x: 0, y: 0 });
    expect(offsets[2]).toEqual(offsets[3]);
  });

  it('every two pins of one spot are at least the spacing apart, even for a large lot', () => {
    const spacing = 16;
    const offsets = fanOutOffsets(Array.from({ length: 60 }, () => nashville), { spacingPx: spacing, aspect: 1 });
    for (let i = 0; i < offsets.length; i++) {
      for (let j = i + 1; j < offsets.length; j++) expect(distance(offsets[i]!, offsets[j]!)).toBeGreaterThanOrEqual(spacing - 0.2);
    }
  });

  it('the fan is stretched sideways by the aspect, because price pills are wider than tall', () => {
    const round = fanSlot(2, 10, 1);
    const wide = fanSlot(2, 10, 2);
    expect(wide.y).toBe(round.y);
    expect(wide.x).toBeCloseTo(round.x * 2, 0);
  });

  it('the fan grows outwards slowly: the first ring holds six pins', () => {
    for (let n = 1; n <= 6; n++) expect(distance(fanSlot(n, 10), { x: 0, y: 0 })).toBeCloseTo(10, 0);
    expect(distance(fanSlot(7, 10), { x: 0, y: 0 })).toBeCloseTo(20, 0);
  });
});

describe('the map reports its visible area as north/south/east/west bounds', () => {
  it('bounds inside the world are passed through', () => {
    const b = { north: 36.5, south: 35.8, east: -86.3, west: -87.2 };
    expect(normaliseBounds(b)).toEqual(b);
  });

  it('longitudes past the antimeridian are wrapped back to [-180, 180]', () => {
    expect(normaliseBounds({ north: 10, south: 0, east: 190, west: 170 })).toEqual({ north: 10, south: 0, east: -170, west: 170 });
  });

  it('a view wider than the world covers every longitude', () => {
    expect(normaliseBounds({ north: 85, south: -85, east: 400, west: -300 })).toEqual({ north: 85, south: -85, east: 180, west: -180 });
  });
});

describe('the map recentres only when the search location changes', () => {
  it('the same coordinates in a new object are the same place', () => {
    expect(samePoint(nashville, { ...nashville })).toBe(true);
    expect(samePoint(nashville, { latitude: 38.627, longitude: -90.1994 })).toBe(false);
  });
});

describe('a marker popup opens beside its pin without covering it', () => {
  const size = { width: 56, height: 26 };

  it('a popup opening upwards sits above the pill, following the fanned-out pin', () => {
    expect(popupOffsets({ x: 20, y: -10 }, size).bottom).toEqual([20, -40]);
  });

  it('a popup opening downwards starts just below the point', () => {
    expect(popupOffsets({ x: 0, y: 0 }, size).top).toEqual([0, 4]);
  });

  it('a popup opening sideways clears half the pill width', () => {
    const o = popupOffsets({ x: 0, y: 0 }, size);
    expect(o.left).toEqual([32, -13]);
    expect(o.right).toEqual([-32, -13]);
  });
});
