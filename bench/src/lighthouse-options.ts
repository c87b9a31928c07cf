import type { LighthouseOptions } from './lighthouse.ts';

/** The Lighthouse step's settings from the environment (see bench/README.md). */
export function lighthouseOptions(): LighthouseOptions {
  const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
  const port = Number(process.env.BENCH_LIGHTHOUSE_PORT ?? 4311);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error('BENCH_LIGHTHOUSE_RUNS must be a whole number of at least 1.');
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new Error('BENCH_LIGHTHOUSE_PORT must be a port number.');
  const pages = process.env.BENCH_LIGHTHOUSE_PAGES;
  return {
    port,
    runs,
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    saveDir: process.env.BENCH_LIGHTHOUSE_SAVE || null,
    only: pages ? pages.split(',').map((p) => p.trim()) : null,
    log: (line) => console.log(line),
  };
}
