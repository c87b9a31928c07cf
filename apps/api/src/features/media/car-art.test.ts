import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { COLORS, IMAGE_VIEWS } from '@ampere/domain/constants';
import { carSvg, isKnownColor, isKnownView } from './car-art.ts';

const MODELS = [
  { slug: 'model-3', name: 'Model 3', type: 'Sedan' },
  { slug: 'model-s', name: 'Model S', type: 'Sedan' },
  { slug: 'model-y', name: 'Model Y', type: 'SUV' },
  { slug: 'model-x', name: 'Model X', type: 'SUV' },
];
const hash = (svg: string) =>
  createHash('sha256')
    .update(svg.replace(/ aria-label="[^"]*"/, ''))
    .digest('hex');

describe('generated car photos (spec 3, image views)', () => {
  it('draws every view of a model as a different picture', () => {
    for (const model of MODELS) {
      const hashes = IMAGE_VIEWS.map((view) => hash(carSvg(model, 'red', view.toLowerCase())));
      expect(new Set(hashes).size, model.name).toBe(IMAGE_VIEWS.length);
    }
  });

  it('draws each body style differently in every view (sedan, liftback, crossover, SUV)', () => {
    for (const view of IMAGE_VIEWS) {
      const hashes = MODELS.map((model) => hash(carSvg(model, 'blue', view.toLowerCase())));
      expect(new Set(hashes).size, view).toBe(MODELS.length);
    }
  });

  it('a Long Range model is drawn with its base model’s body', () => {
    const base = carSvg({ slug: 'model-y', name: 'Model Y', type: 'SUV' }, 'white', 'moneyshot');
    const longRange = carSvg(
      { slug: 'model-y-long-range', name: 'Model Y Long Range', type: 'SUV' },
      'white',
      'moneyshot',
    );
    expect(hash(longRange)).toBe(hash(base));
  });

  it('paints the car in its colour', () => {
    const model = MODELS[0]!;
    const hashes = COLORS.map((c) => hash(carSvg(model, c.toLowerCase(), 'moneyshot')));
    expect(new Set(hashes).size).toBe(COLORS.length);
  });

  it('is a small, labelled picture with no text in it', () => {
    for (const model of MODELS) {
      for (const view of IMAGE_VIEWS) {
        const svg = carSvg(model, 'grey', view.toLowerCase());
        expect(svg).toMatch(/^<svg [^>]*role="img"/);
        expect(svg).toContain(`aria-label="${model.name}, grey, `);
        expect(svg).not.toMatch(/<text|<image|href="http/);
        expect(svg.length, `${model.name} ${view}`).toBeLessThan(20_000);
      }
    }
  });

  it('knows the spec’s views and the fleet’s colours, and nothing else', () => {
    expect(IMAGE_VIEWS.every((v) => isKnownView(v.toLowerCase()))).toBe(true);
    expect(COLORS.every((c) => isKnownColor(c.toLowerCase()))).toBe(true);
    expect(isKnownView('trunk')).toBe(false);
    expect(isKnownView('MONEYSHOT')).toBe(false);
    expect(isKnownColor('purple')).toBe(false);
    expect(isKnownColor('constructor')).toBe(false);
  });
});
