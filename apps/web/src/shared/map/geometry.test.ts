import { describe, expect, it } from 'vitest';
import { groupBySpot, normaliseBounds, popupOffsets, projectToScreen, samePoint, spreadOffsets } from './geometry.ts';

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

describe('cars at one lot share one pin', () => {
  const lot = { latitude: 36.1593, longitude: -86.7759 };
  const away = { latitude: 36.2, longitude: -86.7 };

  it('groups cars by their lot, keeping the order they came in', () => {
    const cars = [
      { id: 'a', ...lot, place: { id: '1' } },
      { id: 'b', ...away, place: { id: '2' } },
      { id: 'c', ...lot, place: { id: '1' } },
    ];
    expect(groupBySpot(cars).map((g) => g.members.map((m) => m.id))).toEqual([['a', 'c'], ['b']]);
  });

  it('without a lot, cars within about 10 m of each other share a spot', () => {
    const near = { latitude: lot.latitude + 0.00005, longitude: lot.longitude };
    expect(groupBySpot([lot, near, away]).map((g) => g.members.length)).toEqual([2, 1]);
  });
});

describe('overlapping pins are offset (spec 9, Search results)', () => {
  const pill = { width: 80, height: 26 };

  it('leaves pins that do not touch where they are', () => {
    expect(
      spreadOffsets([
        { x: 100, y: 100, ...pill },
        { x: 300, y: 100, ...pill },
      ]),
    ).toEqual([
      { x: 0, y: 0 },
      { x: 0, y: 0 },
    ]);
  });

  it('moves a pin that would cover another by one row', () => {
    const offsets = spreadOffsets(
      [
        { x: 100, y: 100, ...pill },
        { x: 110, y: 105, ...pill },
      ],
      4,
    );
    expect(offsets[0]).toEqual({ x: 0, y: 0 });
    expect(Math.abs(offsets[1]!.y)).toBe(30);
    expect(offsets[1]!.x).toBe(0);
  });

  it('no two of many pins at one point cover each other', () => {
    const boxes = Array.from({ length: 12 }, () => ({ x: 200, y: 200, ...pill }));
    const placed = spreadOffsets(boxes).map((o) => ({ left: 160 + o.x, top: 174 + o.y }));
    for (let i = 0; i < placed.length; i += 1)
      for (let j = i + 1; j < placed.length; j += 1) {
        const a = placed[i]!,
          b = placed[j]!;
        const overlap = Math.abs(a.left - b.left) < pill.width && Math.abs(a.top - b.top) < pill.height;
        expect(overlap, `pins ${i} and ${j}`).toBe(false);
      }
  });
});

describe('pins can be placed before the map has loaded', () => {
  const view = { center: nashville, zoom: 9, width: 600, height: 400 };

  it('the centre falls in the middle of the box', () => {
    expect(projectToScreen(nashville, view)).toEqual({ x: 300, y: 200 });
  });

  it('east is right and north is up, at 512 px per world at zoom 0', () => {
    const east = projectToScreen({ ...nashville, longitude: nashville.longitude + 0.1 }, view);
    // 0.1° of longitude at zoom 9: 512 × 512 × 0.1 / 360 ≈ 72.8 px.
    expect(east.x - 300).toBeCloseTo(72.8, 1);
    expect(projectToScreen({ ...nashville, latitude: nashville.latitude + 0.1 }, view).y).toBeLessThan(200);
  });
});
