/**
 * `npm run bench:lighthouse`: only the Lighthouse part of the benchmark, with what Lighthouse says
 * about each page (LCP element, slow parts, failed checks) under the table; recorded in bench/results/.
 * BENCH_LIGHTHOUSE_PAGES=/search,/login limits the pages; BENCH_LIGHTHOUSE_SAVE=<folder> keeps the JSON reports.
 */
import path from 'node:path';
import { bundleFigures } from './bundle.ts';
import { formatLighthouse, lighthouseFigures, measureLighthouse } from './lighthouse.ts';
import { lighthouseOptions } from './lighthouse-options.ts';
import { newRecord } from './record.ts';
import { summarizeAndRecord } from './report.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const options = lighthouseOptions();
const record = newRecord(root, 'lighthouse', { runs: options.runs, pages: options.only ?? 'all' });
measureLighthouse(root, options)
  .then((report) => {
    console.log(`\n${formatLighthouse(report, true)}\n`);
    Object.assign(record.figures, lighthouseFigures(report), bundleFigures(report.bundle));
    summarizeAndRecord(root, record);
  })
  .catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  })
  .finally(() => setTimeout(() => process.exit(), 100).unref());
