import { describe, expect, it } from 'vitest';
import { normaliseBounds, popupOffsets, samePoint, stackOffsets } from './geometry.ts';

const nashville = { latitude: 36.1627, longitude: -86.7816 };

describe('the map reports its visible area as north/south/east/west bounds', () => {
  it('bounds inside the world are passed through', () => {
    const b = { north: 36.5, south: 35.8, east: -86.3, west: -87.2 };
    expect(normaliseBounds(b)).toEqual(b);
  });

  it('longitudes past the antimeridian are wrapped back to [-180, 180]', () => {
    expect(normaliseBounds({ north: 10, south: 0, east: 190, west: 170 })).toEqual({
      north: 10,
      south: 0,
      east: -170,
      west: 170,
    });
  });

  it('a view wider than the world covers every longitude', () => {
    expect(normaliseBounds({ north: 85, south: -85, east: 400, west: -300 })).toEqual({
      north: 85,
      south: -85,
      east: 180,
      west: -180,
    });
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

describe('overlapping pins are offset (spec 2, Search results): pins sharing a spot at the last zoom stand in columns', () => {
  const lot = { latitude: 36.1593, longitude: -86.7759 };
  const away = { latitude: 36.2, longitude: -86.7 };

  it('leaves a pin alone at its spot where it is', () => {
    expect(stackOffsets([lot, away])).toEqual([
      { x: 0, y: 0 },
      { x: 0, y: 0 },
    ]);
  });

  it('stacks pins at one spot one row apart, centred on it', () => {
    expect(stackOffsets([lot, lot, lot], { rowPx: 30 })).toEqual([
      { x: 0, y: -30 },
      { x: 0, y: 0 },
      { x: 0, y: 30 },
    ]);
  });

  it('starts a new column past perColumn, and no two pins share a place', () => {
    const offsets = stackOffsets(
      Array.from({ length: 7 }, () => lot),
      { rowPx: 30, columnPx: 100, perColumn: 5 },
    );
    expect(new Set(offsets.map((o) => `${o.x},${o.y}`)).size).toBe(7);
    expect(offsets[0]).toEqual({ x: -50, y: -60 });
    expect(offsets[5]).toEqual({ x: 50, y: -60 });
  });
});
