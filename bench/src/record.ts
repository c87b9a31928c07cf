/**
 * The benchmarks' record: each run writes its figures to `bench/results/`, one JSON file per run,
 * and prints each figure beside the previous recorded one and today's target (issue 27).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIGURES, type FigureSpec, meetsTarget } from './targets.ts';

/** Which command made the record: the full run, or one of its parts alone. */
export type RecordKind = 'bench' | 'lighthouse' | 'bundle' | 'start' | 'import' | 'ops-day' | 'scale' | 'booking';

export interface MachineDetail {
  cores: number;
  memoryGiB: number;
  cpuModel: string;
  /**
   * How long a fixed piece of work (hashing, a tight loop, JSON) took at the start of the run, the
   * best of five (ms): hosts that report the same CPU model run it up to twice as fast as each other.
   * Absent from records made before it was measured.
   */
  speedMs?: number;
}

export interface RunRecord {
  kind: RecordKind;
  /** Short commit hash, `-dirty` when the tree had changes (the results folder aside). */
  commit: string;
  machine: string;
  machineDetail: MachineDetail;
  recordedAt: string;
  /** 1-minute load average when the run began and ended: a busy machine explains a bad figure. */
  loadAverage: { start: number; end: number };
  settings: Record<string, unknown>;
  figures: Record<string, number>;
  /** Lowest and highest of a figure measured more than once (the median is in `figures`). */
  spreads: Record<string, [number, number]>;
}

/** A worse figure by more than this (percent) is marked in the summary. */
export const WORSE_MARK_PERCENT = 20;

export const RESULTS_DIR = 'bench/results';

export function machineDetail(): MachineDetail {
  return {
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    speedMs: measureSpeedMs(),
  };
}

/**
 * Two runs' speeds further apart than this (a fraction of the faster) are on different hosts. One
 * host's own speed moves by up to a third between runs when its neighbours are busy; the hosts seen
 * under one name differ by about twice.
 */
export const SPEED_TOLERANCE = 0.35;

/**
 * The fixed work `speedMs` times, the best of five rounds (about a quarter of a second in all). The
 * work must stay as it is: the speeds recorded before would no longer compare.
 */
export function measureSpeedMs(): number {
  const block = Buffer.alloc(1 << 20, 7);
  const rows = Array.from({ length: 2_000 }, (_, i) => ({ id: i, vin: `VIN${i}`, cents: i * 137, ok: i % 3 === 0 }));
  let best = Number.POSITIVE_INFINITY;
  let sink = 0;
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    const hash = createHash('sha256');
    for (let i = 0; i < 4; i++) hash.update(block);
    sink += hash.digest()[0]!;
    let acc = 0;
    for (let i = 0; i < 3_000_000; i++) acc = (acc + i * 31) % 1_000_003;
    sink += acc;
    for (let i = 0; i < 5; i++) sink += (JSON.parse(JSON.stringify(rows)) as unknown[]).length;
    best = Math.min(best, performance.now() - started);
  }
  // `sink` keeps the work from being optimised away.
  return sink < 0 ? Number.NaN : Math.round(best * 10) / 10;
}

/**
 * Whether two runs are comparable: the same kind of machine by name and, where both measured it, a
 * speed within SPEED_TOLERANCE of each other. A record from before speeds were measured is judged
 * by its name alone.
 */
export function sameMachine(a: Comparable, b: Comparable): boolean {
  if (a.machine !== b.machine) return false;
  const sa = a.machineDetail?.speedMs;
  const sb = b.machineDetail?.speedMs;
  if (sa === undefined || sb === undefined) return true;
  return Math.abs(sa - sb) <= SPEED_TOLERANCE * Math.min(sa, sb);
}

/**
 * A short name that stays the same across runs on one kind of machine (the host name does not):
 * cores, memory in GiB and six hex digits of the CPU model's hash, e.g. `2c-23g-5e1f0a`.
 */
export function machineName(m: MachineDetail): string {
  const cpu = createHash('sha256').update(m.cpuModel).digest('hex').slice(0, 6);
  return `${m.cores}c-${m.memoryGiB}g-${cpu}`;
}

/** The checked-out commit's short hash, `-dirty` if anything but the results folder changed. */
export function commitName(root: string): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  try {
    const hash = git('rev-parse', '--short=7', 'HEAD');
    const changes = git('status', '--porcelain', '--', '.', `:(exclude)${RESULTS_DIR}`);
    return changes ? `${hash}-dirty` : hash;
  } catch {
    return 'no-git';
  }
}

/** `2026-11-27T13-05-09Z_be94dfa-dirty_2c-23g-5e1f0a_bench.json`: sorts by time; says commit, machine and command. */
export function recordFileName(r: Pick<RunRecord, 'recordedAt' | 'commit' | 'machine' | 'kind'>): string {
  const time = r.recordedAt.replace(/\.\d+Z$/, 'Z').replaceAll(':', '-');
  return `${time}_${r.commit}_${r.machine}_${r.kind}.json`;
}

/** A record for a run beginning now; fill in `figures` and `spreads`, then `writeRecord`. */
export function newRecord(root: string, kind: RecordKind, settings: Record<string, unknown>): RunRecord {
  const detail = machineDetail();
  return {
    kind,
    commit: commitName(root),
    machine: machineName(detail),
    machineDetail: detail,
    recordedAt: new Date().toISOString(),
    loadAverage: { start: os.loadavg()[0]!, end: Number.NaN },
    settings,
    figures: {},
    spreads: {},
  };
}

/** Writes the record as `bench/results/<name>.json` under the root; returns its path. */
export function writeRecord(root: string, record: RunRecord): string {
  const dir = path.join(root, RESULTS_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, recordFileName(record));
  const done = { ...record, loadAverage: { ...record.loadAverage, end: os.loadavg()[0]! } };
  fs.writeFileSync(file, `${JSON.stringify(done, null, 2)}\n`);
  return file;
}

/** Every record in the folder; a file that is not a record is skipped. */
export function readRecords(dir: string): RunRecord[] {
  if (!fs.existsSync(dir)) return [];
  const records: RunRecord[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    try {
      const r = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as Partial<RunRecord>;
      if (
        typeof r.recordedAt === 'string' &&
        typeof r.machine === 'string' &&
        r.figures &&
        typeof r.figures === 'object'
      )
        records.push({ spreads: {}, ...r } as RunRecord);
    } catch {
      // Not ours, or cut short: not a record to compare with.
    }
  }
  return records;
}

/** What a run is compared by: its machine's name and, when measured, its speed. */
export type Comparable = Pick<RunRecord, 'machine'> & { machineDetail?: Partial<MachineDetail> };

export interface Previous {
  value: number;
  record: RunRecord;
}

/**
 * The figure as last recorded: by the latest run whose speed was measured and is this run's
 * (`sameMachine`); else the latest on a machine of the same name (one from before speeds were
 * measured, judged by its name, or one at another speed, shown for scale); else the latest anywhere.
 */
export function previousValue(records: RunRecord[], id: string, current: Comparable): Previous | null {
  const withFigure = records
    .filter((r) => typeof r.figures[id] === 'number' && Number.isFinite(r.figures[id]))
    .sort((a, b) => b.recordedAt.localeCompare(a.recordedAt));
  const timed = (r: Comparable) => r.machineDetail?.speedMs !== undefined;
  const found =
    (timed(current) ? withFigure.find((r) => timed(r) && sameMachine(r, current)) : undefined) ??
    withFigure.find((r) => r.machine === current.machine) ??
    withFigure[0];
  return found ? { value: found.figures[id]!, record: found } : null;
}

/** How much worse `value` is than `previous`, in percent (negative: better). */
export function worsePercent(spec: Pick<FigureSpec, 'better'>, value: number, previous: number): number {
  if (previous === value) return 0;
  if (previous === 0)
    return value > 0 === (spec.better === 'lower') ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  const change = ((value - previous) / Math.abs(previous)) * 100;
  return spec.better === 'lower' ? change : -change;
}

/** "▼ 34 % worse" past the mark, "▲ 25 % better" past it the other way, else the change in plain words. */
export function describeChange(worse: number): string {
  if (worse === 0) return 'same';
  const size = Number.isFinite(worse) ? `${Math.round(Math.abs(worse))} %` : 'from 0';
  if (worse > WORSE_MARK_PERCENT) return `▼ ${size} worse`;
  if (worse < -WORSE_MARK_PERCENT) return `▲ ${size} better`;
  return `${size} ${worse > 0 ? 'worse' : 'better'}`;
}

export function formatFigure(spec: Pick<FigureSpec, 'unit'>, value: number): string {
  switch (spec.unit) {
    case 'ms':
      return `${value.toFixed(1)} ms`;
    case 's':
      return `${value.toFixed(2)} s`;
    case 'req/s':
      return `${value.toFixed(0)} req/s`;
    case 'KB':
      return `${value.toFixed(1)} KB`;
    case 'MB':
      return `${value.toFixed(0)} MB`;
    case 'ratio':
      return value.toFixed(3);
    case 'score':
      return Number.isInteger(value) ? String(value) : value.toFixed(3);
  }
}

/** The number alone, for a spread beside the figure that already says its unit. */
const bare = (spec: Pick<FigureSpec, 'unit'>, value: number) => formatFigure(spec, value).replace(` ${spec.unit}`, '');

export interface FigureRow {
  measure: string;
  value: string;
  previous: string;
  change: string;
  target: string;
  met?: boolean;
  /** More than the mark worse than the previous record. */
  regressed: boolean;
}

/**
 * One row per figure of the catalogue that this run measured (in the catalogue's order), plus the
 * `alsoShow` ones as "not measured" when absent: value (with its spread), previous, change, target.
 */
export function figureRows(
  current: Pick<RunRecord, 'figures' | 'spreads'> & Comparable,
  records: RunRecord[],
  alsoShow: string[] = [],
): FigureRow[] {
  const rows: FigureRow[] = [];
  for (const [id, spec] of Object.entries(FIGURES)) {
    const value = current.figures[id];
    const target =
      spec.target === undefined ? '' : `${spec.better === 'lower' ? '≤' : '≥'} ${formatFigure(spec, spec.target)}`;
    if (value === undefined || !Number.isFinite(value)) {
      if (alsoShow.includes(id))
        rows.push({ measure: spec.label, value: 'not measured', previous: '', change: '', target, regressed: false });
      continue;
    }
    const spread = current.spreads[id];
    const shown = spread
      ? `${formatFigure(spec, value)} (${bare(spec, spread[0])}–${bare(spec, spread[1])})`
      : formatFigure(spec, value);
    const prev = previousValue(records, id, current);
    const worse = prev ? worsePercent(spec, value, prev.value) : 0;
    // A record from another machine is shown for scale only: a slower machine is no regression.
    const elsewhere = prev !== null && !sameMachine(prev.record, current);
    rows.push({
      measure: spec.label,
      value: shown,
      previous: prev
        ? `${formatFigure(spec, prev.value)} (${prev.record.commit}${whereFrom(prev.record, current)})`
        : 'none',
      change: !prev
        ? ''
        : elsewhere
          ? `${describeChange(worse).replace(/^[▼▲] /, '')}, another machine`
          : describeChange(worse),
      target,
      met: meetsTarget(spec, value),
      regressed: prev !== null && !elsewhere && worse > WORSE_MARK_PERCENT,
    });
  }
  return rows;
}

/** Nothing for a comparable machine; its name, or its speed beside this one's, for another. */
function whereFrom(record: RunRecord, current: Comparable): string {
  if (sameMachine(record, current)) return '';
  if (record.machine !== current.machine) return `, ${record.machine}`;
  return `, a host of speed ${record.machineDetail.speedMs} ms, here ${current.machineDetail?.speedMs} ms`;
}

/** The median and the lowest and highest of a figure measured in several rounds. */
export function medianAndSpread(values: number[]): { median: number; spread: [number, number] } {
  if (values.length === 0) return { median: Number.NaN, spread: [Number.NaN, Number.NaN] };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, spread: [sorted[0]!, sorted[sorted.length - 1]!] };
}

/** Puts the median in the figures and, measured more than once, the spread beside it. */
export function setMedian(record: Pick<RunRecord, 'figures' | 'spreads'>, id: string, values: number[]): number {
  const { median, spread } = medianAndSpread(values);
  record.figures[id] = median;
  if (values.length > 1) record.spreads[id] = spread;
  return median;
}
