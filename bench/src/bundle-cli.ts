import path from 'node:path';
import { bundleFigures, measureBundle } from './bundle.ts';
import { newRecord } from './record.ts';
import { summarizeAndRecord } from './report.ts';

/** `npm run bench:bundle`: only the download-size part of the benchmark, in a few seconds; recorded. */
const root = path.resolve(import.meta.dirname, '..', '..');
const record = newRecord(root, 'bundle', {});
const report = measureBundle(root);
for (const f of report.files) console.log(`  ${f.file.padEnd(44)} ${(f.gzipBytes / 1024).toFixed(1)} KB`);
console.log('');
Object.assign(record.figures, bundleFigures(report));
summarizeAndRecord(root, record);
