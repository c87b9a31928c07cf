import type { LoadResult } from './load.ts';

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const ms = (v: number) => `${v.toFixed(1)} ms`;
export const rps = (v: number) => `${v.toFixed(1)} req/s`;

export function describeLoad(label: string, r: LoadResult): string {
  const codes = Object.entries(r.statusCounts)
    .map(([code, n]) => `${code}×${n}`)
    .join(', ');
  return [
    `  ${label}: ${rps(r.requestsPerSecond)}, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, max ${ms(r.max)}`,
    `    ${r.completed} requests, status ${codes || 'none'}; non-2xx ${r.non2xx}, connection errors ${r.errors}, timeouts ${r.timeouts}; ${kb(r.bytesPerSecond)}/s received`,
  ].join('\n');
}

export interface Row {
  measure: string;
  value: string;
  target?: string;
  met?: boolean;
}

/** A plain-text table that reads the same in a terminal and in a CI log. */
export function table(rows: Row[]): string {
  const cells = rows.map((r) => [
    r.measure,
    r.value,
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'met' : 'MISSED',
  ]);
  const head = ['measure', 'value', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => v.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}
