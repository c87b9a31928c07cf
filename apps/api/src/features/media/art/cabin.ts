/**
 * The cabin views: DASH from the driver's seat, RF_INTERIOR through the open front passenger
 * door. Drawn flat per body style: Model 3 and Y have one landscape screen and a round wheel,
 * Model S a yoke and a driver's display, Model X a windscreen that runs up into the roof.
 */
import type { Body } from './bodies.ts';

interface Paint {
  body: string;
  shade: string;
  light: string;
}

interface Trim {
  seat: string;
  seatShade: string;
  stitch: string;
  strip: string;
}

const DARK: Trim = { seat: '#2a2c30', seatShade: '#17181b', stitch: '#4a4d53', strip: '#b89b78' };
const LIGHT: Trim = { seat: '#ece9e3', seatShade: '#c9c4bb', stitch: '#f9f8f5', strip: '#2b2d31' };
const trimFor = (b: Body) => (b.kind === 'sedan' ? DARK : LIGHT);

const rect = (x: number, y: number, w: number, h: number, r: number, fill: string, extra = '') =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${r}" fill="${fill}"${extra}/>`;

/** A small top-down car in the paint colour, as the screen shows it. */
function screenCar(x: number, y: number, paint: Paint): string {
  return `<path d="M${x} ${y + 14}c0-10 8-14 22-14h34c12 0 18 5 18 14s-6 14-18 14h-34c-14 0-22-4-22-14z" fill="${paint.body}" stroke="${paint.light}"/><path d="M${x + 30} ${y + 5}h18c4 0 6 4 6 9s-2 9-6 9h-18c-3 0-4-4-4-9s1-9 4-9z" fill="#1b232c"/>`;
}

function screen(x: number, y: number, w: number, h: number, paint: Paint): string {
  const map = `<path d="M${x + w * 0.42} ${y + h} L${x + w * 0.62} ${y + 12} M${x + w * 0.36} ${y + h * 0.55} H${x + w - 10} M${x + w * 0.8} ${y + 8} L${x + w * 0.72} ${y + h - 6}" stroke="#58708a" stroke-width="5" fill="none"/>`;
  return [
    rect(x - 6, y - 6, w + 12, h + 12, 12, '#0d0e10'),
    rect(x, y, w, h, 6, '#1d2733'),
    rect(x, y, w * 0.34, h, 6, '#e9edf1'),
    map,
    `<circle cx="${x + w * 0.66}" cy="${y + h * 0.55}" r="7" fill="#3e8ef7" stroke="#fff" stroke-width="3"/>`,
    screenCar(x + w * 0.05, y + h * 0.5 - 14, paint),
  ].join('');
}

export function dashSvg(b: Body, paint: Paint): string {
  const trim = trimFor(b);
  const tall = b.falconWings === true;
  const yoke = b.kind === 'liftback';
  const parts = [
    `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#9cc3e6"/><stop offset="0.7" stop-color="#dbe9f3"/></linearGradient>`,
    `<rect width="800" height="500" fill="url(#sky)"/>`,
    `<path d="M0 250 Q200 225 400 232 T800 240 V330 H0Z" fill="#9db58a"/>`,
    `<path d="M330 330 L392 236 L412 236 L520 330Z" fill="#7b8086"/><path d="M401 246 V262 M401 276 V300" stroke="#f4f1e4" stroke-width="3"/>`,
    // The hood, in the car's colour, seen over the dashboard.
    `<path d="M-10 316 Q400 262 810 316 V340 H-10Z" fill="url(#top)"/>`,
    tall ? '' : `<path d="M0 0 H800 V42 Q400 70 0 42Z" fill="#1f2124"/>`,
    `<path d="M0 ${tall ? 0 : 30} L70 ${tall ? 0 : 40} L150 330 L0 330Z" fill="#24262a"/><path d="M800 ${tall ? 0 : 30} L730 ${tall ? 0 : 40} L650 330 L800 330Z" fill="#24262a"/>`,
    `<path d="M-10 318 Q400 296 810 318 V500 H-10Z" fill="#2c2e33"/>`,
    `<path d="M-10 356 Q400 336 810 356 V374 Q400 354 -10 374Z" fill="${trim.strip}"/>`,
    `<path d="M-10 380 Q400 360 810 380" stroke="#111214" stroke-width="4" fill="none"/>`,
    `<path d="M-10 400 Q400 384 810 400 V500 H-10Z" fill="${trim.seat}" opacity="0.9"/>`,
  ];
  if (yoke || tall)
    parts.push(
      rect(150, 250, 150, 62, 8, '#0d0e10'),
      rect(156, 256, 138, 50, 5, '#1d2733'),
      `<path d="M180 292 A30 30 0 0 1 240 292" stroke="#3e8ef7" stroke-width="5" fill="none"/>`,
    );
  parts.push(screen(yoke || tall ? 420 : 350, 236, yoke || tall ? 250 : 290, yoke || tall ? 140 : 160, paint));
  // Steering wheel (a yoke on the S), with the column below it.
  parts.push(`<path d="M206 500 L214 420 L246 420 L254 500Z" fill="#1a1b1e"/>`);
  parts.push(
    yoke
      ? `<path d="M130 370 Q128 420 160 430 L300 430 Q332 420 330 370 L308 372 Q300 398 280 400 L180 400 Q160 398 152 372Z" fill="#151618"/><rect x="196" y="396" width="68" height="36" rx="10" fill="#26282c"/>`
      : `<circle cx="230" cy="410" r="96" fill="none" stroke="#151618" stroke-width="22"/><path d="M140 420 Q230 396 320 420 L290 440 Q230 428 170 440Z" fill="#151618"/><rect x="204" y="410" width="52" height="44" rx="12" fill="#26282c"/>`,
  );
  return parts.join('');
}

/** A seat in profile facing right: base, cushion, back, headrest. */
function seat(x: number, floor: number, scale: number, trim: Trim): string {
  const s = (n: number) => Math.round(n * scale);
  const base = `M${x + s(30)} ${floor} L${x + s(44)} ${floor - s(36)} H${x + s(170)} L${x + s(184)} ${floor}Z`;
  const cushion = `M${x - s(10)} ${floor - s(34)} Q${x - s(14)} ${floor - s(104)} ${x + s(40)} ${floor - s(108)} L${x + s(206)} ${floor - s(112)} Q${x + s(236)} ${floor - s(104)} ${x + s(226)} ${floor - s(62)} L${x + s(206)} ${floor - s(34)} Z`;
  const back = `M${x - s(4)} ${floor - s(60)} Q${x - s(40)} ${floor - s(150)} ${x - s(28)} ${floor - s(236)} Q${x - s(10)} ${floor - s(254)} ${x + s(40)} ${floor - s(244)} Q${x + s(40)} ${floor - s(160)} ${x + s(72)} ${floor - s(96)} Z`;
  const head = `M${x - s(30)} ${floor - s(250)} Q${x - s(34)} ${floor - s(312)} ${x + s(16)} ${floor - s(312)} Q${x + s(50)} ${floor - s(306)} ${x + s(40)} ${floor - s(250)} Z`;
  const stitch = `M${x + s(8)} ${floor - s(100)} Q${x - s(16)} ${floor - s(170)} ${x - s(6)} ${floor - s(226)} M${x + s(50)} ${floor - s(90)} H${x + s(200)}`;
  const edge = ` stroke="${trim.seatShade}" stroke-width="3"`;
  return `<path d="${base}" fill="#15161a"/><path d="${head}" fill="${trim.seat}"${edge}/><path d="${back}" fill="${trim.seat}"${edge}/><path d="${cushion}" fill="${trim.seat}"${edge}/><path d="${stitch}" stroke="${trim.stitch}" stroke-width="2" stroke-dasharray="6 5" fill="none"/>`;
}

export function seatsSvg(b: Body, paint: Paint): string {
  const trim = trimFor(b);
  const high = b.kind === 'crossover' || b.kind === 'suv';
  const floor = high ? 410 : 430;
  const parts = [
    `<rect width="800" height="500" fill="#3a3d42"/>`,
    // The far door's panel and window, the floor, the dashboard running in from the right.
    `<path d="M0 60 H800 V250 H0Z" fill="#8fb0c9"/><path d="M0 60 H800 V90 H0Z" fill="#2a2c30"/>`,
    `<path d="M0 240 H800 V340 H0Z" fill="${trim.seatShade}"/><path d="M0 262 H800" stroke="${trim.strip}" stroke-width="10"/>`,
    `<path d="M0 ${floor} H800 V500 H0Z" fill="#1b1c1f"/>`,
    `<path d="M560 190 Q700 170 800 180 V330 Q700 320 620 290 Z" fill="#2c2e33"/><path d="M590 214 Q700 196 800 204 V222 Q700 214 596 232Z" fill="${trim.strip}"/>`,
    rect(560, 120, 130, 84, 8, '#0d0e10'),
    rect(566, 126, 118, 72, 5, '#1d2733'),
    seat(high ? 200 : 210, floor + 4, 0.82, { ...trim, seat: trim.seatShade }),
    // Centre console between the seats.
    `<path d="M300 ${floor} L320 ${floor - 110} H560 L600 ${floor}Z" fill="#222428"/><rect x="360" y="${floor - 104}" width="150" height="10" rx="4" fill="${trim.strip}"/>`,
    seat(high ? 120 : 130, floor + 30, 1, trim),
  ];
  if (b.falconWings) parts.push(`<path d="M0 60 H70 V330 H0Z" fill="#2a2c30"/>`);
  // The door opening's frame, in the car's colour: roof rail, A pillar, B pillar and sill.
  parts.push(
    `<path d="M0 0 H800 V500 H0Z M40 70 Q60 40 140 38 L640 38 Q700 40 790 150 L790 470 L40 470 Z" fill="url(#side)" fill-rule="evenodd"/>`,
    `<path d="M40 470 H790" stroke="${paint.shade}" stroke-width="6"/><path d="M40 458 H790" stroke="#111214" stroke-width="10" opacity="0.6"/>`,
  );
  return parts.join('');
}

export function cabinSvg(b: Body, paint: Paint, kind: 'dash' | 'seats'): string {
  return kind === 'dash' ? dashSvg(b, paint) : seatsSvg(b, paint);
}
