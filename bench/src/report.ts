import path from 'node:path';
import type { LoadResult } from './load.ts';
import {
  type FigureRow,
  RESULTS_DIR,
  type RunRecord,
  WORSE_MARK_PERCENT,
  figureRows,
  readRecords,
  writeRecord,
} from './record.ts';

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

/** A plain-text grid that reads the same in a terminal and in a CI log. */
export function grid(head: string[], cells: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => v.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}

const verdict = (met: boolean | undefined) => (met === undefined ? '' : met ? 'met' : 'MISSED');

export function table(rows: Row[]): string {
  return grid(
    ['measure', 'value', 'target', ''],
    rows.map((r) => [r.measure, r.value, r.target ?? '', verdict(r.met)]),
  );
}

/**
 * Prints every figure of the run beside the previous record and its target, marks those more than
 * 20 % worse, then writes the run to `bench/results/`. Returns the figures that got worse.
 */
export function summarizeAndRecord(root: string, record: RunRecord, alsoShow: string[] = []): FigureRow[] {
  const rows = figureRows(record, readRecords(path.join(root, RESULTS_DIR)), alsoShow);
  console.log(
    grid(
      ['measure', 'value', 'previous record', 'change', 'target', ''],
      rows.map((r) => [r.measure, r.value, r.previous, r.change, r.target, verdict(r.met)]),
    ),
  );
  const regressed = rows.filter((r) => r.regressed);
  if (regressed.length > 0)
    console.log(
      `\n${regressed.length} figure(s) more than ${WORSE_MARK_PERCENT} % worse than the last record: ${regressed.map((r) => r.measure).join('; ')}.`,
    );
  const file = writeRecord(root, record);
  console.log(
    `\nRecorded in ${path.relative(root, file)} (machine ${record.machine}: ${record.machineDetail.cores} cores, ${record.machineDetail.memoryGiB} GiB, ${record.machineDetail.cpuModel}, speed ${record.machineDetail.speedMs} ms; load average ${record.loadAverage.start.toFixed(2)} at the start). Commit it to keep it in the history.`,
  );
  return regressed;
}
