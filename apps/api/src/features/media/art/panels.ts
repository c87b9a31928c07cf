/**
 * The body as panels in space: sides, glasshouse, hood, windscreen, roof, rear window, boot or
 * hatch, nose and tail, each with its outward normal, fill and the details that sit on it
 * (windows, lights, seams). A view draws the panels that face its camera, far ones first.
 */
import { type Body, type XZ, beltAt } from './bodies.ts';
import type { V3 } from './camera.ts';

export interface Pt {
  p: V3;
  sharp?: boolean;
}

export interface Panel {
  pts: Pt[];
  normal: V3;
  fill: string;
  stroke?: string;
  /** Drawn as an open line rather than a filled shape. */
  line?: boolean;
  smooth?: boolean;
  details?: Panel[];
}

const FRONT_CORNER = 0.26;
const REAR_CORNER = 0.18;
const GLASS_IN = 0.03;

const last = <T>(a: readonly T[]) => a[a.length - 1]!;
const lerp = (a: number, b: number, t: number) => a + (b - a) * t;

export function halfWidth(b: Body) {
  return b.width / 2;
}

export function roofHeight(b: Body) {
  return Math.max(...b.roof.map((p) => p[1]));
}

/** x of the nose's surface at height z (the nose profile read as x for a z). */
function profileX(points: readonly XZ[], z: number): number {
  for (let i = 0; i < points.length - 1; i++) {
    const [x1, z1] = points[i]!,
      [x2, z2] = points[i + 1]!;
    if ((z - z1) * (z - z2) <= 0 && z1 !== z2) return lerp(x1, x2, (z - z1) / (z2 - z1));
  }
  return points[z < points[0]![1] ? 0 : points.length - 1]![0];
}

/** How far the corner of the nose (or tail) sits back from its centre, at a fraction of the half width. */
const setback = (corner: number, f: number) => corner * Math.abs(f) ** 2.4;

/** Half width of the glasshouse at height z: the body side at the belt, the roof rail at the top. */
function glassWidth(b: Body, x: number, z: number) {
  const belt = beltAt(b, x);
  const t = Math.max(0, Math.min(1, (z - belt) / (roofHeight(b) - belt)));
  return halfWidth(b) - GLASS_IN - (b.tumble - GLASS_IN) * t;
}

/** The bottom edge from the rear bumper to the front bumper, round both wheel arches. */
function bottomEdge(b: Body): Pt[] {
  const out: Pt[] = [];
  const arch = (axle: number, edgeZ: number) => {
    const r = b.tireR + 0.05;
    const start = Math.asin(Math.max(-1, Math.min(1, (edgeZ - b.tireR) / r)));
    for (let i = 0; i <= 10; i++) {
      const a = lerp(start, Math.PI - start, i / 10);
      out.push({ p: [axle + r * Math.cos(a), 0, b.tireR + r * Math.sin(a)], sharp: i === 0 || i === 10 });
    }
  };
  const rearEdge = lerp(last(b.tail)[1], b.sill, 0.5);
  arch(b.rearAxle, rearEdge);
  arch(b.frontAxle, lerp(b.nose[0]![1], b.sill, 0.5));
  return out;
}

export interface PanelSet {
  panels: Panel[];
  /** Wheel-arch outlines on each side, for the wheels drawn in front of the body. */
  arches: { axle: number; pts: V3[] }[];
}

export interface PanelPaint {
  side: string;
  top: string;
  face: string;
  glass: string;
  roofGlass: string;
  seam: string;
  shade: string;
  light: string;
}

export function bodyPanels(b: Body, paint: PanelPaint, opts: { openWings?: boolean } = {}): PanelSet {
  const W = halfWidth(b);
  const hoodFront = last(b.nose);
  const cowl = last(b.hood);
  const tailTop = last(b.deck);
  const panels: Panel[] = [];
  const at = (x: number, y: number, z: number, sharp?: boolean): Pt => ({ p: [x, y, z], sharp });

  const sideOutline = (s: number): Pt[] => [
    ...b.nose.map(([x, z], i) => at(x + FRONT_CORNER, s * W, z, i === 0)),
    ...b.hood.map(([x, z]) => at(x, s * W, z)),
    ...b.deck.map(([x, z], i) =>
      at(x - (i === b.deck.length - 1 ? REAR_CORNER : 0), s * W, z, i === b.deck.length - 1),
    ),
    ...b.tail.map(([x, z], i) => at(x - REAR_CORNER, s * W, z, i === b.tail.length - 1)),
    ...bottomEdge(b).map((q) => ({ ...q, p: [q.p[0], s * W, q.p[2]] as V3 })),
  ];

  const glassOutline = (s: number): Pt[] => {
    const top = [...b.roof, ...b.rearGlass];
    return [
      at(cowl[0], s * glassWidth(b, cowl[0], cowl[1]), cowl[1] + 0.01, true),
      ...top.map(([x, z], i) => at(x, s * glassWidth(b, x, z), z, i === 0)),
      at(b.deck[0]![0], s * glassWidth(b, b.deck[0]![0], b.deck[0]![1]), b.deck[0]![1] + 0.01, true),
    ];
  };

  for (const s of [-1, 1]) {
    panels.push({
      pts: sideOutline(s),
      normal: [0, s, 0],
      fill: paint.side,
      stroke: paint.seam,
      smooth: true,
      details: sideDetails(b, s, paint, opts.openWings === true && s > 0),
    });
    panels.push({
      pts: glassOutline(s),
      normal: [0, s, 0.45],
      fill: paint.side,
      stroke: paint.seam,
      smooth: true,
      details: glassDetails(b, s, paint, opts.openWings === true && s > 0),
    });
    panels.push(mirror(b, s, paint));
  }

  // Top surfaces span the car from one side to the other; their centre line bows forward a little.
  const top = (pts: Pt[], corners: number[], normal: V3, fill: string, stroke: string): Panel => ({
    pts: pts.map((q, i) => (corners.includes(i) || corners.includes(i - pts.length) ? { ...q, sharp: true } : q)),
    normal,
    fill,
    stroke,
    smooth: true,
  });
  const across = (x: number, z: number, w: number, bow: number, dz = 0): Pt[] => [
    at(x, -w, z),
    at(x - bow, 0, z + dz),
    at(x, w, z),
  ];
  const noseTop = (s: number) => at(hoodFront[0] + FRONT_CORNER, s * W, hoodFront[1]);
  const hoodPts = [
    noseTop(-1),
    at(hoodFront[0], 0, hoodFront[1] + 0.02),
    noseTop(1),
    ...b.hood.map(([x, z]) => at(x, W - 0.02, z)),
    at(cowl[0] - 0.06, 0, cowl[1] + 0.01),
    ...[...b.hood].reverse().map(([x, z]) => at(x, -(W - 0.02), z)),
  ];
  panels.push(top(hoodPts, [0, 2, 2 + b.hood.length, 4 + b.hood.length], [-0.25, 0, 1], paint.top, paint.seam));
  const roofFront = b.roof[0]!;
  const gw = (x: number, z: number) => glassWidth(b, x, z);
  panels.push(
    top(
      [
        ...across(cowl[0], cowl[1] + 0.01, gw(cowl[0], cowl[1]), 0.06),
        ...across(roofFront[0], roofFront[1], gw(roofFront[0], roofFront[1]), 0.04, 0.01).reverse(),
      ],
      [0, 2, 3, 5],
      [cowl[1] - roofFront[1], 0, roofFront[0] - cowl[0]],
      paint.glass,
      '#0d1014',
    ),
  );
  panels.push(
    top(
      [...b.roof.map(([x, z]) => at(x, -gw(x, z), z)), ...[...b.roof].reverse().map(([x, z]) => at(x, gw(x, z), z))],
      [0, b.roof.length - 1, b.roof.length, -1],
      [0, 0, 1],
      paint.roofGlass,
      '#0d1014',
    ),
  );
  const rear = [last(b.roof), ...b.rearGlass, b.deck[0]!];
  panels.push(
    top(
      [...rear.map(([x, z]) => at(x, -gw(x, z), z)), ...[...rear].reverse().map(([x, z]) => at(x, gw(x, z), z))],
      [0, rear.length - 1, rear.length, -1],
      [last(b.roof)[1] - b.deck[0]![1], 0, b.deck[0]![0] - last(b.roof)[0]],
      paint.glass,
      '#0d1014',
    ),
  );
  const deckPts = [
    ...b.deck.map(([x, z], i) => at(x - (i === b.deck.length - 1 ? REAR_CORNER : 0), -(W - 0.02), z)),
    at(tailTop[0], 0, tailTop[1] + 0.01),
    ...[...b.deck].reverse().map(([x, z], i) => at(x - (i === 0 ? REAR_CORNER : 0), W - 0.02, z)),
  ];
  panels.push(top(deckPts, [0, b.deck.length - 1, b.deck.length + 1, -1], [0.15, 0, 1], paint.top, paint.seam));
  panels.push(endFace(b, 'front', paint));
  panels.push(endFace(b, 'rear', paint));

  const arches = [b.frontAxle, b.rearAxle].map((axle) => ({
    axle,
    pts: bottomEdge(b)
      .map((q) => q.p)
      .filter((p) => Math.abs(p[0] - axle) <= b.tireR + 0.06),
  }));
  return { panels, arches };
}

/** The nose or the tail: a curved face whose corners sit back from its centre. */
function endFace(b: Body, end: 'front' | 'rear', paint: PanelPaint): Panel {
  const W = halfWidth(b);
  const front = end === 'front';
  const profile = front ? b.nose : [last(b.deck), ...b.tail];
  const corner = front ? FRONT_CORNER : REAR_CORNER;
  const dir = front ? 1 : -1;
  const surface = (f: number, z: number): V3 => [profileX(profile, z) + dir * setback(corner, f), f * W, z];
  const topZ = front ? last(b.nose)[1] : last(b.deck)[1];
  const bottomZ = front ? b.nose[0]![1] : last(b.tail)[1];
  const fs = [-1, -0.6, 0, 0.6, 1];
  const edge = (z: number, fList: number[], dz: (f: number) => number): Pt[] =>
    fList.map((f) => ({
      p: [
        front ? profile[profile.length - 1]![0] + setback(corner, f) : profile[0]![0] - setback(corner, f),
        f * W,
        z + dz(f),
      ],
    }));
  const sides = (f: number) => profile.map(([, z]) => ({ p: surface(f, z) }));
  const top = front ? edge(topZ, fs, (f) => 0.02 * (1 - f * f)) : edge(topZ, fs, (f) => 0.01 * (1 - f * f));
  const bottom = fs.map((f): Pt => ({ p: [profileX(profile, bottomZ) + dir * setback(corner, f), f * W, bottomZ] }));
  const right = sides(1),
    left = sides(-1);
  // Walk round the face: up one side, across the top, down the other, back along the bottom.
  const corner0 = (q: Pt): Pt => ({ ...q, sharp: true });
  const pts: Pt[] = front
    ? [
        ...right.slice(1, -1),
        corner0(top[4]!),
        ...top.slice(1, 4).reverse(),
        corner0(top[0]!),
        ...[...left].reverse().slice(1, -1),
        corner0(bottom[0]!),
        ...bottom.slice(1, 4),
        corner0(bottom[4]!),
      ]
    : [
        corner0(top[0]!),
        ...top.slice(1, 4),
        corner0(top[4]!),
        ...right.slice(1, -1),
        corner0(bottom[4]!),
        ...bottom.slice(1, 4).reverse(),
        corner0(bottom[0]!),
        ...[...left].reverse().slice(1, -1),
      ];
  const details: Panel[] = [];
  const lamp = front ? b.headlight : b.taillight;
  for (const s of [-1, 1]) {
    const p = lamp.map(([f, dz]) => ({ p: surface(s * f, topZ - dz) }));
    details.push({
      pts: p,
      normal: [-dir, 0, 0],
      fill: front ? 'url(#hl)' : 'url(#tl)',
      stroke: '#23272c',
      smooth: true,
    });
    if (front)
      details.push({
        pts: [0.5, 0.75, 0.95].map((f, i) => ({ p: surface(s * f, topZ - 0.085 + i * 0.02) })),
        normal: [-1, 0, 0],
        fill: 'none',
        stroke: '#ffffff',
        line: true,
      });
  }
  if (front) {
    const z0 = bottomZ + 0.05,
      z1 = bottomZ + 0.15;
    details.push({
      pts: [
        [-0.42, z0],
        [-0.46, z1],
        [0.46, z1],
        [0.42, z0],
      ].map(([f, z]) => ({ p: surface(f!, z!) })),
      normal: [-1, 0, 0],
      fill: '#15181b',
    });
  } else {
    const z0 = bottomZ,
      z1 = bottomZ + 0.09;
    details.push({
      pts: [
        [-0.82, z0],
        [-0.86, z1],
        [0.86, z1],
        [0.82, z0],
      ].map(([f, z]) => ({ p: surface(f!, z!) })),
      normal: [1, 0, 0],
      fill: '#15181b',
    });
    const plateZ = b.kind === 'sedan' || b.kind === 'liftback' ? bottomZ + 0.2 : topZ - 0.42;
    details.push({
      pts: [
        [-0.17, plateZ],
        [-0.17, plateZ + 0.15],
        [0.17, plateZ + 0.15],
        [0.17, plateZ],
      ].map(([f, z]) => ({ p: surface(f!, z!) })),
      normal: [1, 0, 0],
      fill: paint.shade,
    });
  }
  return { pts, normal: [-dir, 0, 0.12], fill: paint.face, stroke: paint.seam, smooth: true, details };
}

function mirror(b: Body, s: number, paint: PanelPaint): Panel {
  const x = last(b.hood)[0] + 0.12;
  const z = beltAt(b, x) + 0.03;
  const W = halfWidth(b);
  const q = (dx: number, dy: number, dz: number): Pt => ({ p: [x + dx, s * (W - 0.05 + dy), z + dz] });
  return {
    pts: [q(0, 0, 0), q(0.02, 0.2, 0.02), q(0.1, 0.22, 0.1), q(0.17, 0.04, 0.12), q(0.12, 0, 0.02)],
    normal: [-0.3, s, 0.2],
    fill: paint.side,
    stroke: paint.seam,
    smooth: true,
  };
}

function sideDetails(b: Body, s: number, paint: PanelPaint, open: boolean): Panel[] {
  const W = halfWidth(b) + 0.003;
  const at = (x: number, z: number): Pt => ({ p: [x, s * W, z] });
  const line = (pts: Pt[], stroke = paint.seam): Panel => ({
    pts,
    normal: [0, s, 0],
    fill: 'none',
    stroke,
    line: true,
  });
  const beltZ = (x: number) => beltAt(b, x);
  const cowl = last(b.hood)[0];
  const frontArchEnd = b.frontAxle + b.tireR + 0.06;
  const rearArchStart = b.rearAxle - b.tireR - 0.06;
  const out: Panel[] = [
    line([
      at(cowl + 0.05, beltZ(cowl)),
      at(frontArchEnd + 0.02, b.tireR + 0.12),
      at(frontArchEnd + 0.04, b.sill + 0.04),
    ]),
    line([at(b.bPillar, beltZ(b.bPillar)), at(b.bPillar + 0.02, b.sill + 0.04)]),
    line([at(b.cPillar, beltZ(b.cPillar)), at(rearArchStart + 0.05, b.tireR + 0.2), at(rearArchStart, b.sill + 0.05)]),
    line(
      [
        at(b.nose[1]![0] + 0.2, b.nose[2]![1] + 0.05),
        at(cowl - 0.2, beltZ(cowl) - 0.1),
        at(last(b.deck)[0] - 0.2, last(b.deck)[1] - 0.1),
      ],
      paint.light,
    ),
  ];
  for (const x of [b.bPillar - 0.32, b.cPillar - 0.34])
    out.push({
      pts: [
        at(x, beltZ(x) - 0.07),
        at(x + 0.17, beltZ(x) - 0.065),
        at(x + 0.17, beltZ(x) - 0.09),
        at(x, beltZ(x) - 0.095),
      ],
      normal: [0, s, 0],
      fill: paint.shade,
    });
  // The lamps' wrap-round onto the sides, and the charge port in the left tail light.
  const hf = last(b.nose);
  const nx = hf[0] + FRONT_CORNER + 0.02;
  out.push({
    pts: [at(nx, hf[1] - 0.035), at(nx + 0.3, hf[1] + 0.005), at(nx + 0.24, hf[1] - 0.04), at(nx, hf[1] - 0.115)],
    normal: [0, s, 0],
    fill: 'url(#hl)',
    stroke: '#23272c',
    smooth: true,
  });
  const tt = last(b.deck);
  const tx = tt[0] - REAR_CORNER - 0.02;
  out.push({
    pts: [at(tx, tt[1] - 0.06), at(tx - 0.32, tt[1] - 0.045), at(tx - 0.28, tt[1] - 0.12), at(tx, tt[1] - 0.17)],
    normal: [0, s, 0],
    fill: 'url(#tl)',
    stroke: '#23272c',
    smooth: true,
  });
  if (s < 0)
    out.push({
      pts: [
        at(tx - 0.3, tt[1] - 0.2),
        at(tx - 0.16, tt[1] - 0.2),
        at(tx - 0.16, tt[1] - 0.29),
        at(tx - 0.3, tt[1] - 0.29),
      ],
      normal: [0, s, 0],
      fill: 'none',
      stroke: paint.seam,
      line: false,
    });
  out.push({
    pts: [
      at(frontArchEnd + 0.25, beltZ(frontArchEnd) - 0.13),
      at(frontArchEnd + 0.31, beltZ(frontArchEnd) - 0.13),
      at(frontArchEnd + 0.31, beltZ(frontArchEnd) - 0.155),
      at(frontArchEnd + 0.25, beltZ(frontArchEnd) - 0.155),
    ],
    normal: [0, s, 0],
    fill: '#1b1e22',
  });
  if (open)
    out.push({
      pts: [
        at(b.bPillar + 0.03, beltZ(b.bPillar)),
        at(b.cPillar + 0.05, beltZ(b.cPillar)),
        at(rearArchStart + 0.03, b.tireR + 0.2),
        at(rearArchStart, b.sill + 0.06),
        at(b.bPillar + 0.04, b.sill + 0.06),
      ],
      normal: [0, s, 0],
      fill: '#2b2e33',
    });
  return out;
}

function glassDetails(b: Body, s: number, paint: PanelPaint, open: boolean): Panel[] {
  const cowl = last(b.hood);
  const roofFront = b.roof[0]!;
  const deck0 = b.deck[0]!;
  const on = (x: number, z: number): Pt => ({ p: [x, s * (glassWidth(b, x, z) + 0.004), z] });
  const along = (t: number): XZ => [lerp(cowl[0], roofFront[0], t), lerp(cowl[1], roofFront[1], t)];
  const a0 = along(0.2),
    a1 = along(0.9);
  const top = [...b.roof.slice(1), ...b.rearGlass];
  const endX = deck0[0] - (b.kind === 'sedan' ? 0.16 : 0.24);
  const dlo: Pt[] = [
    { ...on(a0[0] + 0.12, a0[1]), sharp: true },
    on(a1[0] + 0.07, a1[1] - 0.04),
    ...top.map(([x, z]) => on(x - 0.06, z - 0.06)),
    { ...on(endX, beltAt(b, endX) + 0.03), sharp: true },
  ];
  const pillar = (x: number, w: number): Panel => {
    const zb = beltAt(b, x) + 0.01;
    const zt = roofAt(b, x);
    return { pts: [on(x - w, zb), on(x - w, zt), on(x + w, zt), on(x + w, zb)], normal: [0, s, 0.45], fill: '#111316' };
  };
  if (open)
    return [
      { pts: dlo, normal: [0, s, 0.45], fill: paint.glass, smooth: true },
      pillar(b.bPillar, 0.045),
      {
        pts: [
          on(b.bPillar + 0.05, beltAt(b, b.bPillar)),
          on(b.bPillar + 0.05, roofAt(b, b.bPillar) - 0.02),
          on(b.cPillar + 0.08, roofAt(b, b.cPillar) - 0.02),
          on(b.cPillar + 0.08, beltAt(b, b.cPillar)),
        ],
        normal: [0, s, 0.45],
        fill: '#2b2e33',
      },
    ];
  return [
    { pts: dlo, normal: [0, s, 0.45], fill: paint.glass, smooth: true },
    pillar(b.bPillar, 0.045),
    pillar(b.cPillar, 0.02),
  ];
}

/** Height of the roof line (windscreen, roof, rear window) at x. */
export function roofAt(b: Body, x: number): number {
  const line = [last(b.hood), ...b.roof, ...b.rearGlass, b.deck[0]!];
  for (let i = 0; i < line.length - 1; i++) {
    const [x1, z1] = line[i]!,
      [x2, z2] = line[i + 1]!;
    if (x >= x1 && x <= x2) return lerp(z1, z2, (x - x1) / (x2 - x1));
  }
  return roofHeight(b);
}
