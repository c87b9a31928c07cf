import { useEffect } from 'react';
import { useFlags } from './get-flags.ts';

type Rgb = [number, number, number];

/** Any CSS colour to rgb, as the browser reads it; null when it is not a colour. */
function toRgb(colour: string): Rgb | null {
  if (!CSS.supports('color', colour)) return null;
  const probe = document.createElement('span');
  probe.style.color = colour;
  probe.style.display = 'none';
  document.body.append(probe);
  const m = /rgba?\((\d+)[, ]+(\d+)[, ]+(\d+)/.exec(getComputedStyle(probe).color);
  probe.remove();
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
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

/**
 * Applies the button-background and icon-color flags app-wide as CSS variables (read by primary
 * buttons and the icons on them). Text on the button is white or black, whichever contrasts more
 * (at least 4.5:1 for any background); an icon colour under 3:1 against the button falls back to it.
 */
export function useFlagTheme(): void {
  const flags = useFlags();
  const background = flags['button-background'];
  const icon = flags['icon-color'];
  useEffect(() => {
    const bg = toRgb(background);
    if (!bg) return;
    const fg = contrast(bg, WHITE) >= contrast(bg, BLACK) ? WHITE : BLACK;
    // Hover moves away from the text colour, so contrast only grows.
    const hover = bg.map((v) => Math.round(fg === WHITE ? v * 0.82 : v + (255 - v) * 0.3)) as Rgb;
    const iconRgb = toRgb(icon);
    const root = document.documentElement.style;
    root.setProperty('--ampere-button-bg', css(bg));
    root.setProperty('--ampere-button-hover', css(hover));
    root.setProperty('--ampere-button-fg', css(fg));
    root.setProperty('--ampere-icon-color', css(iconRgb && contrast(iconRgb, bg) >= 3 ? iconRgb : fg));
  }, [background, icon]);
}
