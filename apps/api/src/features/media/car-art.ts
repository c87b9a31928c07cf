/**
 * Generated vehicle photos: an SVG per model, colour and view, drawn here so the app needs no
 * outside image host. Exterior views are one body per model (sedan, liftback, crossover, SUV)
 * seen from another camera; the cabin views are drawn per body style. No text in any picture.
 */
import { IMAGE_VIEWS, type ImageView } from '@ampere/domain/constants';
import { IMAGE_VIEW_NAMES } from '@ampere/domain/photos';
import { bodyFor } from './art/bodies.ts';
import { type ExteriorView, exteriorSvg, wingsOpenIn } from './art/exterior.ts';
import { cabinSvg } from './art/cabin.ts';
import type { PanelPaint } from './art/panels.ts';

interface Paint {
  body: string;
  shade: string;
  light: string;
  seam: string;
}

const PAINT: Record<string, Paint> = {
  black: { body: '#1c1f23', shade: '#08090b', light: '#5a616b', seam: '#000000' },
  grey: { body: '#737a83', shade: '#3f444a', light: '#c3c8ce', seam: '#33373c' },
  white: { body: '#eceef1', shade: '#b4bac2', light: '#ffffff', seam: '#9aa1aa' },
  red: { body: '#b3121d', shade: '#5e070d', light: '#ef5a62', seam: '#4a0509' },
  blue: { body: '#1f4f9e', shade: '#0e2550', light: '#6f9be0', seam: '#0b1d40' },
};

export interface ArtModel {
  slug: string;
  name: string;
  type: string;
}

const W = 800;
const H = 500;
const VIEWS = new Set<string>(IMAGE_VIEWS.map((v) => v.toLowerCase()));
const EXTERIOR = new Set([
  'MONEYSHOT',
  'FRONT',
  'REAR',
  'L_SIDE',
  'R_SIDE',
  'RR_CORNER',
  'HEADLIGHT',
  'TAILLIGHT',
  'WHEEL',
]);

export function isKnownView(view: string): boolean {
  return VIEWS.has(view);
}

export function isKnownColor(color: string): boolean {
  return Object.hasOwn(PAINT, color);
}

function defs(p: Paint): string {
  const stops = (list: [number, string][]) => list.map(([o, c]) => `<stop offset="${o}" stop-color="${c}"/>`).join('');
  const v = (id: string, list: [number, string][]) =>
    `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1">${stops(list)}</linearGradient>`;
  return [
    v('bg', [
      [0, '#f6f7f9'],
      [0.62, '#e4e8ec'],
      [1, '#cfd5dc'],
    ]),
    v('side', [
      [0, p.light],
      [0.3, p.body],
      [1, p.shade],
    ]),
    v('top', [
      [0, p.body],
      [1, p.light],
    ]),
    v('face', [
      [0, p.light],
      [0.35, p.body],
      [1, p.shade],
    ]),
    `<linearGradient id="glass" x1="0" y1="0" x2="1" y2="1">${stops([
      [0, '#6b7d90'],
      [0.4, '#27313c'],
      [0.48, '#4a5a6b'],
      [0.56, '#1d252e'],
      [1, '#11161c'],
    ])}</linearGradient>`,
    `<linearGradient id="roofg" x1="0" y1="0" x2="1" y2="0">${stops([
      [0, '#141a20'],
      [0.5, '#3a4653'],
      [1, '#141a20'],
    ])}</linearGradient>`,
    v('hl', [
      [0, '#ffffff'],
      [0.5, '#dfe6ec'],
      [1, '#98a4af'],
    ]),
    v('tl', [
      [0, '#f0464e'],
      [0.55, '#b3121d'],
      [1, '#5c070c'],
    ]),
    `<radialGradient id="rim" cx="0.4" cy="0.35" r="0.8">${stops([
      [0, '#f1f3f5'],
      [0.6, '#aab1b9'],
      [1, '#6d747c'],
    ])}</radialGradient>`,
    `<filter id="soft" x="-0.2" y="-0.5" width="1.4" height="2"><feGaussianBlur stdDeviation="9"/></filter>`,
  ].join('');
}

export function carSvg(model: ArtModel, color: string, view: string): string {
  const paint = PAINT[color]!;
  const body = bodyFor(model.slug, model.type);
  const upper = view.toUpperCase();
  let content: string;
  if (EXTERIOR.has(upper)) {
    const panelPaint: PanelPaint = {
      side: 'url(#side)',
      top: 'url(#top)',
      face: 'url(#face)',
      glass: 'url(#glass)',
      roofGlass: 'url(#roofg)',
      seam: paint.seam,
      shade: paint.shade,
      light: paint.light,
    };
    const v = upper as ExteriorView;
    content = `<rect width="${W}" height="${H}" fill="url(#bg)"/>${exteriorSvg(body, panelPaint, v, wingsOpenIn(body, v))}`;
  } else {
    content = cabinSvg(body, paint, upper === 'DASH' ? 'dash' : 'seats');
  }
  const label = `${model.name}, ${color}, ${IMAGE_VIEW_NAMES[upper as ImageView]}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${label}"><defs>${defs(paint)}</defs>${content}</svg>`;
}
