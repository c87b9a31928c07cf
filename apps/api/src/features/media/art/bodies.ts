/**
 * Each model's body in metres, from its real proportions: the side profile as a few points
 * (x from the nose back, z up) and the widths. Model 3 is a fastback sedan, Model S a longer
 * liftback, Model Y a taller crossover and Model X a large SUV with falcon-wing rear doors.
 */

export type XZ = readonly [number, number];
export type RimStyle = 'aero' | 'spokes' | 'twin' | 'turbine';

export interface Body {
  kind: 'sedan' | 'liftback' | 'crossover' | 'suv';
  length: number;
  width: number;
  frontAxle: number;
  rearAxle: number;
  tireR: number;
  rimR: number;
  tireW: number;
  /** Bottom of the body between the wheels. */
  sill: number;
  /** From the front bumper's bottom edge round the nose to the front of the hood. */
  nose: XZ[];
  /** From the front of the hood to the base of the windscreen. */
  hood: XZ[];
  /** Top of the windscreen, along the roof, to the top of the rear window. */
  roof: XZ[];
  /** Down the rear window to its base. */
  rearGlass: XZ[];
  /** From the rear window's base over the boot or hatch to the top of the tail. */
  deck: XZ[];
  /** Down the tail to the rear bumper's bottom edge. */
  tail: XZ[];
  /** How far the roof rails sit inside the body sides (the tumblehome). */
  tumble: number;
  /** Where the front doors end (B pillar) and where the rear side glass is split (C pillar). */
  bPillar: number;
  cPillar: number;
  rim: RimStyle;
  /** Falcon-wing rear doors, drawn open in some views. */
  falconWings?: boolean;
  /** Headlight outline on the nose: [fraction of the half width, metres below the hood's front]. */
  headlight: XZ[];
  /** Tail-light outline on the tail: [fraction of the half width, metres below the tail's top]. */
  taillight: XZ[];
}

const SLIM_HEADLIGHT: XZ[] = [
  [0.46, 0.1],
  [0.7, 0.065],
  [0.94, 0.035],
  [0.985, 0.075],
  [0.86, 0.125],
  [0.52, 0.135],
];
const TALL_HEADLIGHT: XZ[] = [
  [0.44, 0.12],
  [0.7, 0.07],
  [0.95, 0.04],
  [0.99, 0.1],
  [0.86, 0.16],
  [0.5, 0.165],
];
const WRAP_TAILLIGHT: XZ[] = [
  [0.42, 0.06],
  [0.8, 0.05],
  [0.995, 0.07],
  [0.995, 0.17],
  [0.8, 0.16],
  [0.5, 0.13],
];

export const BODIES: Record<'model-3' | 'model-s' | 'model-y' | 'model-x', Body> = {
  'model-3': {
    kind: 'sedan',
    length: 4.72,
    width: 1.85,
    frontAxle: 0.86,
    rearAxle: 3.735,
    tireR: 0.335,
    rimR: 0.232,
    tireW: 0.235,
    sill: 0.24,
    nose: [
      [0.17, 0.2],
      [0.05, 0.31],
      [0, 0.46],
      [0.03, 0.6],
      [0.13, 0.685],
    ],
    hood: [
      [0.5, 0.77],
      [0.95, 0.865],
      [1.38, 0.935],
    ],
    roof: [
      [2.28, 1.385],
      [2.8, 1.44],
      [3.22, 1.405],
    ],
    rearGlass: [[3.62, 1.26]],
    deck: [
      [3.98, 1.065],
      [4.42, 1.035],
      [4.66, 1.0],
    ],
    tail: [
      [4.72, 0.86],
      [4.71, 0.58],
      [4.6, 0.27],
    ],
    tumble: 0.3,
    bPillar: 2.74,
    cPillar: 3.48,
    rim: 'aero',
    headlight: SLIM_HEADLIGHT,
    taillight: WRAP_TAILLIGHT,
  },
  'model-s': {
    kind: 'liftback',
    length: 5.02,
    width: 1.96,
    frontAxle: 0.95,
    rearAxle: 3.91,
    tireR: 0.345,
    rimR: 0.245,
    tireW: 0.245,
    sill: 0.25,
    nose: [
      [0.18, 0.21],
      [0.05, 0.33],
      [0, 0.48],
      [0.04, 0.62],
      [0.15, 0.7],
    ],
    hood: [
      [0.6, 0.79],
      [1.05, 0.875],
      [1.48, 0.945],
    ],
    roof: [
      [2.4, 1.375],
      [2.95, 1.43],
      [3.45, 1.4],
    ],
    rearGlass: [[4.05, 1.24]],
    deck: [
      [4.62, 1.055],
      [4.88, 1.02],
      [5.0, 0.995],
    ],
    tail: [
      [5.02, 0.86],
      [5.0, 0.58],
      [4.88, 0.28],
    ],
    tumble: 0.3,
    bPillar: 2.86,
    cPillar: 3.74,
    rim: 'spokes',
    headlight: SLIM_HEADLIGHT,
    taillight: WRAP_TAILLIGHT,
  },
  'model-y': {
    kind: 'crossover',
    length: 4.75,
    width: 1.92,
    frontAxle: 0.87,
    rearAxle: 3.76,
    tireR: 0.35,
    rimR: 0.245,
    tireW: 0.255,
    sill: 0.29,
    nose: [
      [0.18, 0.27],
      [0.05, 0.39],
      [0, 0.54],
      [0.04, 0.69],
      [0.15, 0.775],
    ],
    hood: [
      [0.55, 0.87],
      [0.98, 0.96],
      [1.4, 1.035],
    ],
    roof: [
      [2.22, 1.55],
      [2.8, 1.62],
      [3.45, 1.59],
    ],
    rearGlass: [[3.98, 1.43]],
    deck: [
      [4.36, 1.16],
      [4.62, 1.125],
      [4.72, 1.1],
    ],
    tail: [
      [4.75, 0.95],
      [4.74, 0.62],
      [4.62, 0.32],
    ],
    tumble: 0.28,
    bPillar: 2.7,
    cPillar: 3.56,
    rim: 'twin',
    headlight: TALL_HEADLIGHT,
    taillight: WRAP_TAILLIGHT,
  },
  'model-x': {
    kind: 'suv',
    length: 5.04,
    width: 2.0,
    frontAxle: 0.98,
    rearAxle: 3.95,
    tireR: 0.37,
    rimR: 0.255,
    tireW: 0.265,
    sill: 0.31,
    nose: [
      [0.2, 0.29],
      [0.05, 0.42],
      [0, 0.57],
      [0.05, 0.72],
      [0.18, 0.815],
    ],
    hood: [
      [0.55, 0.91],
      [0.92, 0.99],
      [1.22, 1.055],
    ],
    roof: [
      [2.56, 1.64],
      [3.1, 1.68],
      [4.02, 1.63],
    ],
    rearGlass: [[4.46, 1.47]],
    deck: [
      [4.76, 1.24],
      [4.93, 1.2],
      [4.99, 1.18],
    ],
    tail: [
      [5.04, 1.0],
      [5.03, 0.65],
      [4.9, 0.34],
    ],
    tumble: 0.25,
    bPillar: 2.66,
    cPillar: 3.86,
    rim: 'turbine',
    falconWings: true,
    headlight: TALL_HEADLIGHT,
    taillight: WRAP_TAILLIGHT,
  },
};

/** The body for a model's slug; Long Range versions share their base model's body. */
export function bodyFor(slug: string, type: string): Body {
  for (const key of Object.keys(BODIES) as (keyof typeof BODIES)[])
    if (slug === key || slug.startsWith(`${key}-`)) return BODIES[key];
  return type === 'SUV' ? BODIES['model-y'] : BODIES['model-3'];
}

/** Height of the belt line (bottom of the side windows) at x. */
export function beltAt(b: Body, x: number): number {
  const start = b.hood[b.hood.length - 1]!;
  const end = b.deck[0]!;
  const t = Math.max(0, Math.min(1, (x - start[0]) / (end[0] - start[0])));
  return start[1] + 0.01 + (end[1] - start[1] - 0.01) * t;
}
