/**
 * Generated vehicle photos: an SVG per model, colour and view, drawn here so the app needs no
 * outside image host. Shapes differ by body type (sedan, SUV, the taller Model X).
 */

const PAINT: Record<string, { body: string; shade: string; light: string }> = {
  black: { body: '#1f2226', shade: '#0d0f11', light: '#4a4f57' },
  grey: { body: '#7c828b', shade: '#555a61', light: '#b3b8bf' },
  white: { body: '#eef0f3', shade: '#c4c8ce', light: '#ffffff' },
  red: { body: '#b1222c', shade: '#7a141b', light: '#e0565f' },
  blue: { body: '#1e4d9b', shade: '#12305f', light: '#5b86cf' },
};

export interface ArtModel {
  slug: string;
  name: string;
  type: string;
}

const W = 800;
const H = 500;

function wheel(cx: number, cy: number, r: number): string {
  const spokes = Array.from({ length: 5 }, (_, i) => {
    const a = (i * 2 * Math.PI) / 5;
    return `<line x1="${cx}" y1="${cy}" x2="${(cx + Math.cos(a) * r * 0.62).toFixed(1)}" y2="${(cy + Math.sin(a) * r * 0.62).toFixed(1)}" stroke="#9aa0a8" stroke-width="${(r * 0.12).toFixed(1)}" stroke-linecap="round"/>`;
  }).join('');
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#151618"/><circle cx="${cx}" cy="${cy}" r="${r * 0.68}" fill="#2b2e33"/>${spokes}<circle cx="${cx}" cy="${cy}" r="${r * 0.14}" fill="#c9cdd2"/>`;
}

function profile(model: ArtModel, paint: { body: string; shade: string; light: string }): string {
  const suv = model.type === 'SUV';
  const tall = model.slug === 'model-x';
  const roof = tall ? 120 : suv ? 135 : 158;
  const belt = suv ? 250 : 262;
  const body = `M70 330 C70 300 90 ${belt} 150 ${belt - 8} L250 ${belt - 20} C300 ${roof + 40} 340 ${roof} 420 ${roof} C520 ${roof} 580 ${roof + 25} 640 ${belt - 22} L700 ${belt - 4} C735 ${belt + 4} 740 300 735 330 L720 350 L80 350 Z`;
  const glass = `M270 ${belt - 22} C310 ${roof + 48} 345 ${roof + 14} 420 ${roof + 14} C505 ${roof + 14} 560 ${roof + 34} 610 ${belt - 24} Z`;
  return [
    `<ellipse cx="400" cy="372" rx="330" ry="16" fill="#000" opacity="0.18"/>`,
    `<path d="${body}" fill="${paint.body}" stroke="${paint.shade}" stroke-width="3"/>`,
    `<path d="M90 320 L720 320" stroke="${paint.light}" stroke-width="4" opacity="0.5"/>`,
    `<path d="${glass}" fill="#1b2430" opacity="0.92"/>`,
    `<line x1="${tall ? 430 : 445}" y1="${roof + 16}" x2="${tall ? 430 : 445}" y2="${belt - 22}" stroke="${paint.body}" stroke-width="8"/>`,
    `<rect x="700" y="${belt + 6}" width="30" height="10" rx="4" fill="#f4f1d0"/>`,
    `<rect x="72" y="${belt + 10}" width="26" height="10" rx="4" fill="#c0262e"/>`,
    wheel(200, 350, 48),
    wheel(610, 350, 48),
  ].join('');
}

function interior(model: ArtModel, paint: { body: string }): string {
  return [
    `<rect width="${W}" height="${H}" fill="#e9e4dc"/>`,
    `<path d="M0 300 C200 250 600 250 800 300 L800 500 L0 500 Z" fill="#2a2b2e"/>`,
    `<path d="M0 0 L800 0 L800 200 C600 170 200 170 0 200 Z" fill="#b9d3e6"/>`,
    `<rect x="0" y="200" width="800" height="60" fill="#d8d2c7"/>`,
    `<rect x="330" y="150" width="240" height="150" rx="12" fill="#101114" stroke="#3b3d42" stroke-width="4"/>`,
    `<rect x="345" y="165" width="210" height="120" rx="6" fill="#22313f"/>`,
    `<circle cx="450" cy="225" r="26" fill="${paint.body}" opacity="0.85"/>`,
    `<circle cx="210" cy="330" r="95" fill="none" stroke="#151618" stroke-width="24"/>`,
    `<rect x="195" y="330" width="30" height="90" fill="#151618"/>`,
    `<rect x="520" y="360" width="260" height="140" rx="30" fill="#3a3b3f"/>`,
    `<text x="30" y="470" font-family="system-ui, sans-serif" font-size="22" fill="#ddd">${model.name} interior</text>`,
  ].join('');
}

function wheelCloseUp(): string {
  return `<rect width="${W}" height="${H}" fill="#d9dde2"/>${wheel(400, 250, 200)}`;
}

const VIEWS = new Set(['moneyshot', 'l_side', 'r_side', 'front', 'rear', 'rf_interior', 'dash', 'wheel']);

export function isKnownView(view: string): boolean {
  return VIEWS.has(view);
}

export function isKnownColor(color: string): boolean {
  return color in PAINT;
}

export function carSvg(model: ArtModel, color: string, view: string): string {
  const paint = PAINT[color]!;
  let content: string;
  if (view === 'rf_interior' || view === 'dash') content = interior(model, paint);
  else if (view === 'wheel') content = wheelCloseUp();
  else {
    const backdrop =
      view === 'moneyshot'
        ? `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f7f8fa"/><stop offset="0.7" stop-color="#e3e7ec"/><stop offset="1" stop-color="#cfd5dc"/></linearGradient></defs><rect width="${W}" height="${H}" fill="url(#g)"/>`
        : `<rect width="${W}" height="${H}" fill="#eef1f4"/>`;
    const flip = view === 'r_side' || view === 'rear' ? ` transform="translate(${W} 0) scale(-1 1)"` : '';
    content = `${backdrop}<g${flip}>${profile(model, paint)}</g>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${model.name}, ${color}, ${view.replace('_', ' ')}">${content}</svg>`;
}
