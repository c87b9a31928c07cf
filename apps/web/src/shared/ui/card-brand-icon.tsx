import type { ReactNode } from 'react';
import { type CardBrand, cardBrandIcon } from '@ampere/domain/account';

const NAMES: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  'american express': 'American Express',
  discover: 'Discover',
  elo: 'Elo',
};

/** A brand's display name: the known five by name, anything else as the gateway wrote it. */
export function cardBrandName(brand: string): string {
  const known =
    NAMES[brand.toLowerCase().replace(/_/g, ' ') as CardBrand] ??
    (brand.toLowerCase() === 'amex' ? NAMES['american express'] : null);
  return known ?? brand.replace(/(^|[\s_-])\w/g, (m) => m.toUpperCase()).replace(/_/g, ' ');
}

/**
 * Small drawn brand marks (spec 5: visa, mastercard, american express, discover, elo; unknown
 * falls back to visa). Decorative: the brand's name is always written next to it.
 */
export function CardBrandIcon({ brand, size = 1 }: { brand: string | null | undefined; size?: number }) {
  const icon = cardBrandIcon(brand);
  return (
    <svg
      width={38 * size}
      height={24 * size}
      viewBox="0 0 38 24"
      aria-hidden="true"
      focusable="false"
      style={{ flex: 'none' }}
    >
      <rect x="0.5" y="0.5" width="37" height="23" rx="3.5" fill={FILL[icon]} stroke="#c9cdd2" />
      {MARK[icon]}
    </svg>
  );
}

const FILL: Record<CardBrand, string> = {
  visa: '#fff',
  mastercard: '#fff',
  'american express': '#1f72cd',
  discover: '#fff',
  elo: '#000',
};

const text = (
  x: number,
  y: number,
  size: number,
  fill: string,
  body: string,
  extra: Record<string, string | number> = {},
) => (
  <text
    x={x}
    y={y}
    fontSize={size}
    fontWeight={800}
    fontFamily="Arial, Helvetica, sans-serif"
    fill={fill}
    textAnchor="middle"
    {...extra}
  >
    {body}
  </text>
);

const MARK: Record<CardBrand, ReactNode> = {
  visa: text(19, 16, 11, '#1a1f71', 'VISA', { fontStyle: 'italic', letterSpacing: 0.5 }),
  mastercard: (
    <>
      <circle cx="15" cy="12" r="7" fill="#eb001b" />
      <circle cx="23" cy="12" r="7" fill="#f79e1b" />
      <path d="M19 6.3a7 7 0 0 1 0 11.4 7 7 0 0 1 0-11.4z" fill="#ff5f00" />
    </>
  ),
  'american express': text(19, 15.5, 8.5, '#fff', 'AMEX', { letterSpacing: 0.6 }),
  discover: (
    <>
      {text(16, 14, 5.5, '#231f20', 'DISCOVER', { textLength: 24, lengthAdjust: 'spacingAndGlyphs' })}
      <circle cx="32" cy="12" r="3" fill="#f48120" />
    </>
  ),
  elo: (
    <>
      {text(20, 16, 11, '#fff', 'elo')}
      <circle cx="9" cy="8" r="1.8" fill="#ffcb05" />
      <circle cx="9" cy="12" r="1.8" fill="#00a4e0" />
      <circle cx="9" cy="16" r="1.8" fill="#ef4123" />
    </>
  ),
};
