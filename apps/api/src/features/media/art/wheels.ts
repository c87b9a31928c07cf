/** Tyres and rims in space: each model has its own rim design, seen at any angle. */
import type { Body, RimStyle } from './bodies.ts';
import { type Camera, type P2, type V3, hull, polyPath, smoothPath } from './camera.ts';

const ring = (b: Body, axle: number, y: number, r: number, n = 16): V3[] =>
  Array.from({ length: n }, (_, i) => {
    const a = (i / n) * 2 * Math.PI;
    return [axle + r * Math.cos(a), y, b.tireR + r * Math.sin(a)] as V3;
  });

interface RimDesign {
  count: number;
  /** Half the angle a spoke (or window) covers at the hub and at the rim, and its twist. */
  hub: number;
  rim: number;
  twist: number;
  /** Aero covers are a light disc with dark windows; spoked rims are light spokes over darkness. */
  windows: boolean;
  pairs?: boolean;
}

const RIMS: Record<RimStyle, RimDesign> = {
  aero: { count: 5, hub: 0.2, rim: 0.34, twist: 0.25, windows: true },
  spokes: { count: 10, hub: 0.09, rim: 0.055, twist: 0, windows: false },
  twin: { count: 5, hub: 0.13, rim: 0.05, twist: 0.05, windows: false, pairs: true },
  turbine: { count: 6, hub: 0.12, rim: 0.22, twist: 0.7, windows: false },
};

/** SVG for one wheel; `front` says whether its outer face is towards the camera. */
export function wheelSvg(b: Body, cam: Camera, axle: number, side: number, front: boolean): string {
  const outer = side * (b.width / 2 - 0.025);
  const inner = side * (b.width / 2 - 0.025 - b.tireW);
  const proj = (ps: V3[]) => ps.map((p) => cam.project(p));
  const tread = hull([...proj(ring(b, axle, outer, b.tireR)), ...proj(ring(b, axle, inner, b.tireR))]);
  let svg = `<path d="${polyPath(tread)}" fill="#141619"/>`;
  if (!front) return svg;
  const face = outer + side * 0.004;
  svg += `<path d="${smoothPath(proj(ring(b, axle, outer, b.tireR)))}" fill="#1d2024"/>`;
  svg += `<path d="${smoothPath(proj(ring(b, axle, outer, b.tireR * 0.93)))}" fill="none" stroke="#2c3035" stroke-width="2"/>`;
  const rim = RIMS[b.rim];
  const at = (rho: number, a: number): P2 =>
    cam.project([axle + rho * b.rimR * Math.cos(a), face, b.tireR + rho * b.rimR * Math.sin(a)]);
  svg += `<path d="${smoothPath(proj(ring(b, axle, face, b.rimR)))}" fill="${rim.windows ? 'url(#rim)' : '#2a2e33'}" stroke="#7d848c" stroke-width="1.5"/>`;
  if (!rim.windows)
    svg += `<path d="${smoothPath(proj(ring(b, axle, face - side * 0.05, b.rimR * 0.7)))}" fill="#4a4f55"/>`;
  const shapes: string[] = [];
  for (let i = 0; i < rim.count; i++) {
    const base = (i / rim.count) * 2 * Math.PI;
    for (const offset of rim.pairs ? [-0.11, 0.11] : [0]) {
      const a = base + offset;
      const inner0 = rim.windows ? 0.42 : 0.2,
        outer0 = rim.windows ? 0.86 : 0.97;
      const pts = [
        at(inner0, a - rim.hub),
        at(outer0, a + rim.twist - rim.rim),
        at(outer0, a + rim.twist + rim.rim),
        at(inner0, a + rim.hub),
      ];
      shapes.push(rim.windows ? smoothPath(pts, true, new Set([0, 3])) : polyPath(pts));
    }
  }
  svg += `<path d="${shapes.join('')}" fill="${rim.windows ? '#24282d' : 'url(#rim)'}"/>`;
  svg += `<path d="${smoothPath(proj(ring(b, axle, face + side * 0.01, b.rimR * 0.24, 12)))}" fill="url(#rim)" stroke="#5b6168"/>`;
  svg += `<path d="${smoothPath(proj(ring(b, axle, face + side * 0.012, b.rimR * 0.08, 8)))}" fill="#3a3f45"/>`;
  return svg;
}
