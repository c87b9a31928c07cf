import path from 'node:path';
import { SEARCH_BUNDLE_TARGET_KB, measureBundle } from './bundle.ts';

/** `npm run bench:bundle`: only the download-size part of the benchmark, in a few seconds. */
const report = measureBundle(path.resolve(import.meta.dirname, '..', '..'));
for (const f of report.files) console.log(`  ${f.file.padEnd(44)} ${(f.gzipBytes / 1024).toFixed(1)} KB`);
console.log(
  `/search before the map: ${(report.totalGzipBytes / 1024).toFixed(1)} KB gzip (target ≤ ${SEARCH_BUNDLE_TARGET_KB} KB)`,
);
if (report.map)
  console.log(
    `map chunk + CSS + basemap: ${(report.map.reduce((s, f) => s + f.gzipBytes, 0) / 1024).toFixed(1)} KB gzip`,
  );
