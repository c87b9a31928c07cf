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
