/**
 * A small perspective camera for the car drawings: the cars are described once in metres
 * (x from the nose back, y towards the car's right, z up) and every exterior view is the same
 * car seen from another place, so the front, the sides and the corners agree with each other.
 */

export type V3 = readonly [number, number, number];
export type P2 = readonly [number, number];

export interface ViewSpec {
  /** Degrees round the car: 0 in front of it, 90 on its left, 180 behind, 270 on its right. */
  azimuth: number;
  /** Degrees above the horizon. */
  elevation: number;
  /** Metres from the aim point. */
  distance: number;
  /** Pixels per metre at one metre from the camera. */
  focal: number;
  /** The point aimed at, and where on the canvas it lands. */
  aim: V3;
  anchor: P2;
}

export interface Camera {
  eye: V3;
  project(p: V3): P2;
  /** Distance from the eye, for drawing far things first. */
  depth(p: V3): number;
  /** Cosine between a surface's outward normal and the way to the eye: above 0 it faces the eye. */
  facing(p: V3, normal: V3): number;
}

const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: V3): V3 => {
  const n = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / n, a[1] / n, a[2] / n];
};

export function makeCamera(v: ViewSpec): Camera {
  const az = (v.azimuth * Math.PI) / 180;
  const el = (v.elevation * Math.PI) / 180;
  const eye: V3 = [
    v.aim[0] - Math.cos(az) * Math.cos(el) * v.distance,
    v.aim[1] - Math.sin(az) * Math.cos(el) * v.distance,
    v.aim[2] + Math.sin(el) * v.distance,
  ];
  const forward = unit(sub(v.aim, eye));
  const right = unit(cross(forward, [0, 0, 1]));
  const up = cross(right, forward);
  return {
    eye,
    project(p) {
      const d = sub(p, eye);
      const z = Math.max(0.05, dot(d, forward));
      return [v.anchor[0] + (v.focal * dot(d, right)) / z, v.anchor[1] - (v.focal * dot(d, up)) / z];
    },
    depth: (p) => Math.hypot(...sub(p, eye)),
    facing: (p, normal) => dot(unit(normal), unit(sub(eye, p))),
  };
}

/** Whole pixels: the pictures are 800 px wide, so finer coordinates only add bytes. */
export const num = (n: number) => String(Math.round(n));

/**
 * A smooth closed (or open) path through the points (Catmull-Rom turned into cubic Béziers);
 * points listed in `sharp` are corners.
 */
export function smoothPath(
  points: readonly P2[],
  closed = true,
  sharp: ReadonlySet<number> = new Set(),
  tension = 0.5,
): string {
  const n = points.length;
  if (n < 2) return '';
  const at = (i: number) => points[closed ? (i + n) % n : Math.max(0, Math.min(n - 1, i))]!;
  let d = `M${num(points[0]![0])} ${num(points[0]![1])}`;
  const segments = closed ? n : n - 1;
  const k = tension / 3;
  for (let i = 0; i < segments; i++) {
    const p0 = at(i - 1),
      p1 = at(i),
      p2 = at(i + 1),
      p3 = at(i + 2);
    const s1 = sharp.has(i % n) ? 0 : k,
      s2 = sharp.has((i + 1) % n) ? 0 : k;
    const c1: P2 = [p1[0] + (p2[0] - p0[0]) * s1, p1[1] + (p2[1] - p0[1]) * s1];
    const c2: P2 = [p2[0] - (p3[0] - p1[0]) * s2, p2[1] - (p3[1] - p1[1]) * s2];
    d += `C${num(c1[0])} ${num(c1[1])} ${num(c2[0])} ${num(c2[1])} ${num(p2[0])} ${num(p2[1])}`;
  }
  return closed ? `${d}Z` : d;
}

/** A straight-edged path, for small shapes where curves add only bytes. */
export function polyPath(points: readonly P2[]): string {
  return `M${points.map((p) => `${num(p[0])} ${num(p[1])}`).join('L')}Z`;
}

/** Points of a cubic Bézier in any dimension, end point included, start point left out. */
export function bezier<T extends readonly number[]>(a: T, b: T, c: T, d: T, steps: number): T[] {
  const out: T[] = [];
  for (let i = 1; i <= steps; i++) {
    const t = i / steps,
      u = 1 - t;
    out.push(
      a.map(
        (_, j) => u * u * u * a[j]! + 3 * u * u * t * b[j]! + 3 * u * t * t * c[j]! + t * t * t * d[j]!,
      ) as unknown as T,
    );
  }
  return out;
}

/** Convex hull (monotone chain) of screen points. */
export function hull(points: readonly P2[]): P2[] {
  const ps = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const side = (o: P2, a: P2, b: P2) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: P2[] = [];
  for (const p of ps) {
    while (lower.length >= 2 && side(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: P2[] = [];
  for (const p of ps.reverse()) {
    while (upper.length >= 2 && side(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}
