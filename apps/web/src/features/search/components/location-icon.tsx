import type { SearchOptionType } from '@ampere/domain/constants';

const PATHS: Partial<Record<SearchOptionType, string>> = {
  AIRPORT: 'M21 16v-2l-8-5V3.5a1.5 1.5 0 0 0-3 0V9l-8 5v2l8-2.5V19l-2 1.5V22l3.5-1 3.5 1v-1.5L13 19v-5.5z',
  STATE: 'M4 5l5-2 6 2 5-2v16l-5 2-6-2-5 2z',
  LOT: 'M6 3h7a5 5 0 0 1 0 10H9v8H6zm3 3v4h4a2 2 0 0 0 0-4z',
  LANDMARK: 'M12 2l3 7h7l-5.5 4.5L18.5 21 12 16.5 5.5 21l2-7.5L2 9h7z',
};
const PIN =
  'M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5z';

/** Icons by location type (spec 2): airport, state, lot, landmark, and a pin for the rest. */
export function LocationIcon({ type }: { type: string }) {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      fill="#0b6a3f"
      data-type={type}
    >
      <path d={PATHS[type as SearchOptionType] ?? PIN} />
    </svg>
  );
}
