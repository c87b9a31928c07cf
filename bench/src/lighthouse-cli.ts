/**
 * `npm run bench:lighthouse`: only the Lighthouse part of the benchmark, with what Lighthouse says
 * about each page (LCP element, slow parts, failed checks) under the table.
 * BENCH_LIGHTHOUSE_PAGES=/search,/login limits the pages; BENCH_LIGHTHOUSE_SAVE=<folder> keeps the JSON reports.
 */
import path from 'node:path';
import { formatLighthouse, measureLighthouse } from './lighthouse.ts';
import { lighthouseOptions } from './lighthouse-options.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
measureLighthouse(root, lighthouseOptions())
  .then((report) => console.log(`\n${formatLighthouse(report, true)}`))
  .catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  })
  .finally(() => setTimeout(() => process.exit(), 100).unref());
