import { toInstant, toLocal } from '@ampere/domain/time';

/**
 * A hold's period is typed on the lot's clock, whatever the browser's zone: a `datetime-local`
 * field's value ('2026-11-27T09:00') is read as that wall-clock time at the location.
 */

/** The field's value for an instant, on the location's clock (to the minute). */
export function fieldValueOf(iso: string, timeZone: string): string {
  const local = toLocal(new Date(iso), timeZone);
  return `${local.date}T${local.time}`;
}

/** The instant a field's value means at the location, or null while the field is empty or half typed. */
export function instantOf(value: string, timeZone: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(value);
  return m ? toInstant({ date: m[1]!, time: m[2]! }, timeZone).toISOString() : null;
}
