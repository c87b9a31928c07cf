/** Exterior views: the same car, camera placed round it, far panels drawn first. */
import type { Body } from './bodies.ts';
import { type Camera, type P2, type V3, type ViewSpec, hull, makeCamera, polyPath, smoothPath } from './camera.ts';
import { type Panel, type PanelPaint, bodyPanels, halfWidth, roofHeight } from './panels.ts';
import { wheelSvg } from './wheels.ts';

export type ExteriorView =
  'MONEYSHOT' | 'FRONT' | 'REAR' | 'L_SIDE' | 'R_SIDE' | 'RR_CORNER' | 'HEADLIGHT' | 'TAILLIGHT' | 'WHEEL';

function viewSpec(b: Body, view: ExteriorView): ViewSpec {
  const mid: V3 = [b.length / 2, 0, 0.72];
  const W = halfWidth(b);
  switch (view) {
    case 'MONEYSHOT':
      return { azimuth: 38, elevation: 9, distance: 10.5, focal: 1640, aim: mid, anchor: [400, 250] };
    case 'RR_CORNER':
      return { azimuth: 216, elevation: 12, distance: 10.5, focal: 1640, aim: mid, anchor: [400, 250] };
    case 'FRONT':
      return { azimuth: 0, elevation: 7, distance: 7.5, focal: 1800, aim: [0, 0, 0.8], anchor: [400, 240] };
    case 'REAR':
      return { azimuth: 180, elevation: 10, distance: 7.5, focal: 1800, aim: [b.length, 0, 0.82], anchor: [400, 240] };
    case 'L_SIDE':
      return { azimuth: 90, elevation: 3, distance: 13, focal: 1900, aim: mid, anchor: [400, 250] };
    case 'R_SIDE':
      return { azimuth: 270, elevation: 3, distance: 13, focal: 1900, aim: mid, anchor: [400, 250] };
    case 'HEADLIGHT':
      return {
        azimuth: 34,
        elevation: 9,
        distance: 2.6,
        focal: 1250,
        aim: [0.22, -W * 0.72, b.nose[b.nose.length - 1]![1] - 0.1],
        anchor: [430, 250],
      };
    case 'TAILLIGHT':
      return {
        azimuth: 145,
        elevation: 11,
        distance: 2.6,
        focal: 1250,
        aim: [b.length - 0.1, -W * 0.72, b.deck[b.deck.length - 1]![1] - 0.12],
        anchor: [380, 250],
      };
    case 'WHEEL':
      return {
        azimuth: 80,
        elevation: 6,
        distance: 2,
        focal: 1000,
        aim: [b.frontAxle, -W, b.tireR + 0.06],
        anchor: [400, 240],
      };
  }
}

function panelSvg(cam: Camera, panel: Panel): string {
  const pts: P2[] = panel.pts.map((q) => cam.project(q.p));
  if (panel.line)
    return `<path d="${smoothPath(pts, false)}" fill="none" stroke="${panel.stroke}" stroke-width="1.6" stroke-linecap="round" opacity="0.55"/>`;
  const sharp = new Set(panel.pts.flatMap((q, i) => (q.sharp ? [i] : [])));
  const d = panel.smooth ? smoothPath(pts, true, sharp) : polyPath(pts);
  const stroke = panel.stroke ? ` stroke="${panel.stroke}" stroke-width="1.2" stroke-linejoin="round"` : '';
  return `<path d="${d}" fill="${panel.fill}"${stroke}/>`;
}

const centroid = (pts: { p: V3 }[]): V3 => {
  const s = pts.reduce((a, q) => [a[0] + q.p[0], a[1] + q.p[1], a[2] + q.p[2]] as V3, [0, 0, 0] as V3);
  return [s[0] / pts.length, s[1] / pts.length, s[2] / pts.length];
};

/** The raised falcon-wing door on the right: roof half swung up, outer half hanging from it. */
function falconWing(b: Body, cam: Camera, paint: PanelPaint): string {
  const H = roofHeight(b);
  const x0 = b.bPillar + 0.05,
    x1 = b.cPillar + 0.1;
  const hinge: [number, number] = [0.14, H];
  const up = (78 * Math.PI) / 180;
  const roofPart = b.width / 2 - b.tumble - hinge[0];
  const elbow: [number, number] = [hinge[0] + roofPart * Math.cos(up), H + roofPart * Math.sin(up)];
  const drop = H - b.sill - 0.35;
  const hang: [number, number] = [0.36, -0.93];
  const at = (t: number): [number, number] => [elbow[0] + hang[0] * drop * t, elbow[1] + hang[1] * drop * t];
  const quad = (a: [number, number], c: [number, number], xa = x0, xb = x1) =>
    polyPath([
      cam.project([xa, a[0], a[1]]),
      cam.project([xb, a[0], a[1]]),
      cam.project([xb - 0.06, c[0], c[1]]),
      cam.project([xa + 0.04, c[0], c[1]]),
    ]);
  const glassEnd = at(0.42);
  return [
    `<path d="${quad(hinge, elbow)}" fill="#2e3237" stroke="#15171a"/>`,
    `<path d="${quad(elbow, at(1))}" fill="url(#side)" stroke="${paint.seam}"/>`,
    `<path d="${quad(at(0.06), glassEnd, x0 + 0.05, x1 - 0.08)}" fill="url(#glass)"/>`,
  ].join('');
}

export function exteriorSvg(b: Body, paint: PanelPaint, view: ExteriorView, openWings: boolean): string {
  const cam = makeCamera(viewSpec(b, view));
  const { panels, arches } = bodyPanels(b, paint, { openWings });
  const W = halfWidth(b);

  // Ground shadow under the car's footprint, then the wheels on the far side.
  const foot = hull([-0.15, b.length + 0.15].flatMap((x) => [-W - 0.12, W + 0.12].map((y) => cam.project([x, y, 0]))));
  let svg = `<path d="${polyPath(foot)}" fill="#0b0d10" opacity="0.32" filter="url(#soft)"/>`;
  // A wheel whose outer face the camera can see sits in front of the body, in its arch.
  const wheels = [b.frontAxle, b.rearAxle].flatMap((axle) =>
    [-1, 1].map((side) => ({ axle, side, near: cam.eye[1] * side > W + 0.3 })),
  );
  for (const w of wheels.filter((w) => !w.near)) svg += wheelSvg(b, cam, w.axle, w.side, false);

  // Panels almost edge-on still shape the outline (the nose seen from the side), so they are
  // drawn, but before every panel that truly faces the camera; each tier far to near.
  const visible = panels
    .map((p) => ({ p, facing: cam.facing(centroid(p.pts), p.normal), depth: cam.depth(centroid(p.pts)) }))
    .filter((v) => v.facing > -0.28)
    .sort((a, c) => Number(a.facing > 0) - Number(c.facing > 0) || c.depth - a.depth);
  for (const { p, facing } of visible) {
    svg += panelSvg(cam, p);
    if (facing > 0)
      for (const d of p.details ?? []) if (cam.facing(centroid(d.pts), d.normal) > -0.2) svg += panelSvg(cam, d);
  }

  // Near wheels sit in their arches: the dark well first, then the tyre, clipped to the opening.
  let defs = '';
  for (const w of wheels.filter((w) => w.near)) {
    const arch = arches.find((a) => a.axle === w.axle)!.pts.map((p): V3 => [p[0], w.side * W, p[2]]);
    const well = arch.map((p) => cam.project(p));
    const opening = [
      ...well,
      cam.project([arch[arch.length - 1]![0], w.side * W, -0.2]),
      cam.project([arch[0]![0], w.side * W, -0.2]),
    ];
    const id = `a${w.axle > b.length / 2 ? 'r' : 'f'}`;
    defs += `<clipPath id="${id}"><path d="${polyPath(opening)}"/></clipPath>`;
    svg += `<path d="${smoothPath(well, true, new Set([0, well.length - 1]))}" fill="#0c0d0f"/>`;
    svg += `<g clip-path="url(#${id})">${wheelSvg(b, cam, w.axle, w.side, true)}</g>`;
  }
  if (openWings) svg += falconWing(b, cam, paint);
  // Whole-car views are centred on the car's own extent, whatever its length.
  const closeUp = view === 'HEADLIGHT' || view === 'TAILLIGHT' || view === 'WHEEL';
  const box = [0, b.length].flatMap((x) =>
    [-W, W].flatMap((y) => [0, roofHeight(b)].map((z) => cam.project([x, y, z])[0])),
  );
  const dx = closeUp ? 0 : Math.round(400 - (Math.min(...box) + Math.max(...box)) / 2);
  return `<defs>${defs}</defs>${dx === 0 ? svg : `<g transform="translate(${dx} 0)">${svg}</g>`}`;
}

/** Whether a view of this body shows the falcon wings raised. */
export function wingsOpenIn(b: Body, view: ExteriorView): boolean {
  return b.falconWings === true && (view === 'R_SIDE' || view === 'RR_CORNER');
}
