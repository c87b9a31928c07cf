import type { ChargeStatus, DepositStatus } from '@ampere/domain/charges';
import { formatInstant } from '../../shared/dates.ts';

/** The badge colour of a charge's state (dark enough for text on it to pass contrast). */
export const CHARGE_STATUS_COLOURS: Record<ChargeStatus, string> = {
  posted: 'gray.7',
  collected: 'teal.9',
  charged: 'teal.9',
  owed: '#a63e00',
  disputed: '#8a5300',
  upheld: 'red.9',
  refunded: 'blue.8',
};

export const DEPOSIT_STATUS_COLOURS: Record<DepositStatus, string> = {
  pending: 'gray.7',
  authorised: 'blue.8',
  in_review: '#8a5300',
  captured: 'teal.9',
  released: 'gray.7',
  failed: 'red.9',
};

/** A card as the console shows it: its brand and last four, never more. */
export function cardWords(brand: string | null, last4: string | null): string {
  if (!last4) return '—';
  const name = brand ? brand.charAt(0).toUpperCase() + brand.slice(1) : 'Card';
  return `${name} ·· ${last4}`;
}

/** A location's time zone by its id, from the list of locations the staff member works at (the browser's while it loads). */
export function zoneOf(locations: readonly { id: string; timezone: string }[] | undefined, locationId: string): string {
  return locations?.find((l) => l.id === locationId)?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * When a matched toll or ticket happened, on the trip's lot's clock with the zone named, as the
 * console shows every time ('Nov 29, 2026, 11:00 AM CST'), whatever the browser's zone.
 */
export function tollWhen(m: { at: string; timezone: string }): string {
  return formatInstant(m.at, { timeZone: m.timezone });
}

/** An unmatched row's time exactly as the statement gave it (its own offset), or a dash when it has none. */
export function statedWhen(u: { statedAt: string | null }): string {
  return u.statedAt ? u.statedAt : '—';
}
