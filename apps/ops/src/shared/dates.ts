/**
 * An instant as staff read it: date, time and the zone's short name, so a time is never ambiguous
 * ('Nov 27, 2026, 6:37 PM CST'). `seconds` for the audit log.
 */
export function formatInstant(iso: string, opts: { seconds?: boolean; timeZone?: string } = {}): string {
  return new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(opts.seconds ? { second: '2-digit' } : {}),
    timeZoneName: 'short',
    ...(opts.timeZone ? { timeZone: opts.timeZone } : {}),
  });
}

/** The time of day on a location's clock, its zone named: '9:00 AM CST'. */
export function formatTime(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleTimeString(undefined, {
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  });
}

/** A day and time on a location's clock, its zone named: 'Sat, Nov 28, 9:00 AM CST'. */
export function formatDayTime(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleString(undefined, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  });
}

/** A location's date ('2026-11-27') in words: 'Friday, November 27'. */
export function formatLocalDate(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString(undefined, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/** How long ago, in hours and minutes: '2 h 5 min'. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  if (h >= 48) return `${Math.floor(h / 24)} days`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}
