import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buttonTheme, parseCanvasColour } from './flag-theme.ts';
import { flagDefaults } from './get-flags.ts';

describe('the flag colours', () => {
  it('reads the colours a canvas gives back', () => {
    expect(parseCanvasColour('#0b3d2e')).toEqual([11, 61, 46]);
    expect(parseCanvasColour('rgba(255, 0, 10, 0.5)')).toEqual([255, 0, 10]);
    expect(parseCanvasColour('not a colour')).toBeNull();
  });

  it('puts white text on a dark button and black on a light one, and keeps a faint icon readable', () => {
    expect(buttonTheme([20, 20, 20], [255, 255, 255])).toMatchObject({
      '--ampere-button-fg': 'rgb(255 255 255)',
      '--ampere-icon-color': 'rgb(255 255 255)',
    });
    const light = buttonTheme([250, 240, 120], [245, 245, 200]);
    expect(light['--ampere-button-fg']).toBe('rgb(0 0 0)');
    expect(light['--ampere-icon-color']).toBe('rgb(0 0 0)');
  });

  it('matches the stylesheet for the default flags, so the page need not be restyled for them', () => {
    const sheet = fs.readFileSync(path.resolve(import.meta.dirname, '../../app/global.css'), 'utf8');
    const declared = (name: string) => new RegExp(`${name}:\\s*([^;]+);`).exec(sheet)?.[1]?.trim();
    const hex = (value: string) => {
      const rgb = parseCanvasColour(value.length === 4 ? `#${[...value.slice(1)].map((c) => c + c).join('')}` : value);
      return rgb && `rgb(${rgb.join(' ')})`;
    };
    const theme = buttonTheme(
      parseCanvasColour(flagDefaults['button-background'])!,
      parseCanvasColour(flagDefaults['icon-color']),
    );
    for (const [name, value] of Object.entries(theme)) expect(hex(declared(name) ?? ''), name).toBe(value);
  });
});
