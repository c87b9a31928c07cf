import { Badge } from '@mantine/core';
import type { CarStatus } from '@ampere/domain/fleet';

/** Status words as staff say them, with a colour that reads on white (contrast checked by axe). */
const STATUS: Record<CarStatus, { label: string; color: string }> = {
  available: { label: 'Available', color: 'ampere' },
  'on rent': { label: 'On rent', color: 'blue.8' },
  'in service': { label: 'In service', color: 'orange.9' },
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
