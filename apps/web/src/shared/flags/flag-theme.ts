import { useEffect } from 'react';
import { flagDefaults, useFlags } from './get-flags.ts';

export type Rgb = [number, number, number];

/**
 * A colour as a canvas reads it back ('#rrggbb', or 'rgba(r, g, b, a)' when translucent) to rgb;
 * null for anything else.
 */
export function parseCanvasColour(value: string): Rgb | null {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value);
  if (hex) return [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16), parseInt(hex[3]!, 16)];
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(value);
  return rgb ? [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])] : null;
}

let canvas: CanvasRenderingContext2D | null | undefined;
/**
 * Any CSS colour to rgb; null when it is not one. A canvas parses it: asking the document instead
 * (a hidden element's computed colour) makes the browser recompute every style on the page, which
 * cost the first load a long task on a phone.
 */
function toRgb(colour: string): Rgb | null {
  if (!CSS.supports('color', colour)) return null;
  canvas ??= document.createElement('canvas').getContext('2d');
  if (!canvas) return null;
  canvas.fillStyle = '#000000';
  canvas.fillStyle = colour;
  return parseCanvasColour(String(canvas.fillStyle));
}

/** WCAG relative luminance and contrast ratio. */
function luminance([r, g, b]: Rgb): number {
  const c = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
}
const contrast = (a: Rgb, b: Rgb) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];
const css = ([r, g, b]: Rgb) => `rgb(${r} ${g} ${b})`;

const THEME_VARIABLES = [
  '--ampere-button-bg',
  '--ampere-button-hover',
  '--ampere-button-fg',
  '--ampere-icon-color',
] as const;
export type ButtonTheme = Record<(typeof THEME_VARIABLES)[number], string>;

/**
 * The primary button's colours for a background and an icon colour: text white or black,
 * whichever contrasts more (at least 4.5:1 for any background); an icon under 3:1 against the
 * button takes the text colour.
 */
export function buttonTheme(bg: Rgb, icon: Rgb | null): ButtonTheme {
  const fg = contrast(bg, WHITE) >= contrast(bg, BLACK) ? WHITE : BLACK;
  // Hover moves away from the text colour, so contrast only grows.
  const hover = bg.map((v) => Math.round(fg === WHITE ? v * 0.82 : v + (255 - v) * 0.3)) as Rgb;
  return {
    '--ampere-button-bg': css(bg),
    '--ampere-button-hover': css(hover),
    '--ampere-button-fg': css(fg),
    '--ampere-icon-color': css(icon && contrast(icon, bg) >= 3 ? icon : fg),
  };
}

/**
 * Applies the button-background and icon-color flags app-wide as CSS variables (read by primary
 * buttons and the icons on them). The stylesheet already holds the default flags' colours
 * (global.css), so with those nothing is written: changing a variable on the root restyles the
 * whole page.
 */
export function useFlagTheme(): void {
  const flags = useFlags();
  const background = flags['button-background'];
  const icon = flags['icon-color'];
  useEffect(() => {
    const root = document.documentElement.style;
    // The default colours are already in the stylesheet: nothing to parse (the canvas costs a few ms to set up).
    const custom = background !== flagDefaults['button-background'] || icon !== flagDefaults['icon-color'];
    const bg = custom ? toRgb(background) : null;
    const theme = bg ? buttonTheme(bg, toRgb(icon)) : null;
    for (const name of THEME_VARIABLES)
      if (!theme) root.removeProperty(name);
      else if (root.getPropertyValue(name) !== theme[name]) root.setProperty(name, theme[name]);
  }, [background, icon]);
}
