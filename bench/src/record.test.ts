import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type RunRecord,
  describeChange,
  medianAndSpread,
  figureRows,
  machineName,
  measureSpeedMs,
  previousValue,
  readRecords,
  recordFileName,
  worsePercent,
  writeRecord,
} from './record.ts';

const record = (over: Partial<RunRecord>): RunRecord => ({
  kind: 'bench',
  commit: 'abc1234',
  machine: '2c-8g-aaaaaa',
  machineDetail: { cores: 2, memoryGiB: 8, cpuModel: 'Test CPU' },
  recordedAt: '2026-11-20T10:00:00.000Z',
  loadAverage: { start: 1, end: 1 },
  settings: {},
  figures: {},
  spreads: {},
  ...over,
});

describe('the record file is named by time, commit, machine and command', () => {
  it('sorts by time and carries no colon', () => {
    const name = recordFileName({
      recordedAt: '2026-11-27T13:05:09.123Z',
      commit: 'be94dfa-dirty',
      machine: '2c-23g-5e1f0a',
      kind: 'lighthouse',
    });
    expect(name).toBe('2026-11-27T13-05-09Z_be94dfa-dirty_2c-23g-5e1f0a_lighthouse.json');
  });

  it('names a machine by cores, memory and its CPU model, the same every time', () => {
    const a = machineName({ cores: 2, memoryGiB: 23, cpuModel: 'AMD EPYC 7B13' });
    expect(a).toMatch(/^2c-23g-[0-9a-f]{6}$/);
    expect(machineName({ cores: 2, memoryGiB: 23, cpuModel: 'AMD EPYC 7B13' })).toBe(a);
    expect(machineName({ cores: 2, memoryGiB: 23, cpuModel: 'Intel Xeon' })).not.toBe(a);
  });
});

describe('the previous record of a figure', () => {
  const here = '2c-8g-aaaaaa';
  const older = record({ recordedAt: '2026-11-20T10:00:00.000Z', commit: 'old0000', figures: { 'pg.search.p99': 30 } });
  const newer = record({ recordedAt: '2026-11-21T10:00:00.000Z', commit: 'new0000', figures: { 'pg.search.p99': 25 } });
  const elsewhere = record({
    recordedAt: '2026-11-22T10:00:00.000Z',
    commit: 'far0000',
    machine: '8c-32g-bbbbbb',
    figures: { 'pg.search.p99': 5, 'bundle.search': 140 },
  });
  const lighthouseOnly = record({ recordedAt: '2026-11-23T10:00:00.000Z', kind: 'lighthouse', figures: {} });

  it('is the latest run on the same kind of machine that measured it', () => {
    expect(
      previousValue([older, elsewhere, newer, lighthouseOnly], 'pg.search.p99', { machine: here })?.record.commit,
    ).toBe('new0000');
  });

  it('is the latest run anywhere when this machine never measured it', () => {
    expect(previousValue([older, elsewhere], 'bundle.search', { machine: here })?.value).toBe(140);
  });

  it('is none when no run measured it', () => {
    expect(previousValue([older], 'bundle.map', { machine: here })).toBeNull();
  });
});

describe('a figure more than 20 % worse than the last record is marked', () => {
  it('counts worse by the figure’s direction', () => {
    expect(worsePercent({ better: 'lower' }, 134, 100)).toBeCloseTo(34);
    expect(worsePercent({ better: 'higher' }, 66, 100)).toBeCloseTo(34);
    expect(worsePercent({ better: 'higher' }, 130, 100)).toBeCloseTo(-30);
    expect(worsePercent({ better: 'lower' }, 0.01, 0)).toBe(Number.POSITIVE_INFINITY);
    expect(worsePercent({ better: 'lower' }, 0, 0)).toBe(0);
  });

  it('marks past 20 % only', () => {
    expect(describeChange(34)).toBe('▼ 34 % worse');
    expect(describeChange(20)).toBe('20 % worse');
    expect(describeChange(-25)).toBe('▲ 25 % better');
    expect(describeChange(-3)).toBe('3 % better');
    expect(describeChange(0)).toBe('same');
    expect(describeChange(Number.POSITIVE_INFINITY)).toBe('▼ from 0 worse');
  });

  it('shows each figure beside the previous one and the target, and flags the regression', () => {
    const previous = record({ figures: { 'pg.search.p99': 10, 'pg.search.ratio': 0.8 } });
    const rows = figureRows(
      {
        machine: '2c-8g-aaaaaa',
        figures: { 'pg.search.p99': 13.4, 'pg.search.ratio': 0.78 },
        spreads: { 'pg.search.ratio': [0.7, 0.9] },
      },
      [previous],
      ['scale.1M.rss'],
    );
    const p99 = rows.find((r) => r.measure.startsWith('PostgreSQL search p99'))!;
    expect(p99).toMatchObject({
      value: '13.4 ms',
      previous: '10.0 ms (abc1234)',
      change: '▼ 34 % worse',
      target: '≤ 20.0 ms',
      met: true,
      regressed: true,
    });
    const ratio = rows.find((r) => r.measure.startsWith('Throughput ratio'))!;
    expect(ratio).toMatchObject({ value: '0.780 (0.700–0.900)', change: '3 % worse', met: true, regressed: false });
    expect(rows.find((r) => r.measure.includes('resident memory'))).toMatchObject({ value: 'not measured' });
  });

  it('shows a record from another machine for scale, without marking a regression', () => {
    const elsewhere = record({ machine: '2c-8g-bbbbbb', figures: { 'pg.search.p99': 10 } });
    const [p99] = figureRows({ machine: '2c-8g-aaaaaa', figures: { 'pg.search.p99': 13.4 }, spreads: {} }, [elsewhere]);
    expect(p99).toMatchObject({
      previous: '10.0 ms (abc1234, 2c-8g-bbbbbb)',
      change: '34 % worse, another machine',
      regressed: false,
    });
  });
});

describe('hosts of one name that run at different speeds', () => {
  const detail = (speedMs?: number) => ({
    cores: 2,
    memoryGiB: 8,
    cpuModel: 'Test CPU',
    ...(speedMs === undefined ? {} : { speedMs }),
  });
  const fast = record({ commit: 'fast000', machineDetail: detail(300), figures: { 'pg.search.p99': 10 } });

  it('times the fixed work as a positive number of milliseconds', () => {
    const speed = measureSpeedMs();
    expect(Number.isFinite(speed)).toBe(true);
    expect(speed).toBeGreaterThan(0);
  });

  it('a host twice as slow is another machine: shown for scale, no regression marked', () => {
    const [p99] = figureRows(
      { machine: '2c-8g-aaaaaa', machineDetail: detail(640), figures: { 'pg.search.p99': 20 }, spreads: {} },
      [fast],
    );
    expect(p99).toMatchObject({
      previous: '10.0 ms (fast000, a host of speed 300 ms, here 640 ms)',
      change: '100 % worse, another machine',
      regressed: false,
    });
  });

  it('a host within the tolerance is the same machine: a worse figure is marked', () => {
    const [p99] = figureRows(
      { machine: '2c-8g-aaaaaa', machineDetail: detail(330), figures: { 'pg.search.p99': 20 }, spreads: {} },
      [fast],
    );
    expect(p99).toMatchObject({ previous: '10.0 ms (fast000)', change: '▼ 100 % worse', regressed: true });
  });

  it('compares with the latest run at this speed before a later one at another', () => {
    const slowLater = record({
      commit: 'slow000',
      recordedAt: '2026-11-25T10:00:00.000Z',
      machineDetail: detail(650),
      figures: { 'pg.search.p99': 19 },
    });
    const here = { machine: '2c-8g-aaaaaa', machineDetail: detail(310) };
    expect(previousValue([fast, slowLater], 'pg.search.p99', here)?.record.commit).toBe('fast000');
    expect(
      previousValue([fast, slowLater], 'pg.search.p99', { ...here, machineDetail: detail(640) })?.record.commit,
    ).toBe('slow000');
  });

  it('prefers an older run at this speed to a later one whose speed was never measured', () => {
    const unmeasuredLater = record({
      commit: 'old0000',
      recordedAt: '2026-11-26T10:00:00.000Z',
      machineDetail: detail(),
      figures: { 'pg.search.p99': 5 },
    });
    const here = { machine: '2c-8g-aaaaaa', machineDetail: detail(320) };
    expect(previousValue([fast, unmeasuredLater], 'pg.search.p99', here)?.record.commit).toBe('fast000');
  });

  it('a record from before speeds were measured is judged by its name alone', () => {
    const unmeasured = record({ commit: 'old0000', machineDetail: detail(), figures: { 'pg.search.p99': 10 } });
    const [p99] = figureRows(
      { machine: '2c-8g-aaaaaa', machineDetail: detail(640), figures: { 'pg.search.p99': 20 }, spreads: {} },
      [unmeasured],
    );
    expect(p99).toMatchObject({ previous: '10.0 ms (old0000)', regressed: true });
  });
});

describe('records on disk', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads back what was written and skips files that are not records', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-record-'));
    const file = writeRecord(dir, record({ figures: { 'bundle.search': 120 } }));
    fs.writeFileSync(path.join(path.dirname(file), 'notes.json'), '{"hello":1}');
    fs.writeFileSync(path.join(path.dirname(file), 'cut.json'), '{"recordedAt":');
    const records = readRecords(path.dirname(file));
    expect(records).toHaveLength(1);
    expect(records[0]!.figures['bundle.search']).toBe(120);
  });
});

describe('a figure measured in rounds', () => {
  it('is their median, with the lowest and highest beside it', () => {
    expect(medianAndSpread([3, 1, 2])).toEqual({ median: 2, spread: [1, 3] });
    expect(medianAndSpread([4, 1, 3, 2])).toEqual({ median: 2.5, spread: [1, 4] });
  });
});
