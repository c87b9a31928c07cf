import { Badge } from '@mantine/core';
import type { CarStatus } from '@ampere/domain/fleet';

/** A dark orange: white badge text on it is above 4.5:1 (Mantine's orange.9 is not). */
export const IN_SERVICE_COLOUR = '#a04000';

/** Status words as staff say them, on colours white text reads on (contrast checked by axe). */
const STATUS: Record<CarStatus, { label: string; color: string }> = {
  available: { label: 'Available', color: 'ampere' },
  'on rent': { label: 'On rent', color: 'blue.8' },
  'in service': { label: 'In service', color: IN_SERVICE_COLOUR },
  retired: { label: 'Retired', color: 'dark' },
};

export const STATUS_LABELS = Object.fromEntries(Object.entries(STATUS).map(([k, v]) => [k, v.label])) as Record<
  CarStatus,
  string
>;

export function CarStatusBadge({ status }: { status: CarStatus }) {
  return <Badge color={STATUS[status].color}>{STATUS[status].label}</Badge>;
}

/** A battery reading, or what to say before the car ever reported one. */
export const batteryText = (percent: number | null) => (percent === null ? 'Not reported' : `${Math.round(percent)}%`);
