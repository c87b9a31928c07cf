/**
 * `npm run bench:start`: `npm start` to healthy, cold (build output removed, new data) then warm
 * (unchanged), with the build's and the server's own timings; recorded in bench/results/.
 */
import path from 'node:path';
import { newRecord } from './record.ts';
import { summarizeAndRecord } from './report.ts';
import { measureStart, startFigures, startPort } from './start.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const record = newRecord(root, 'start', { port: startPort() });
console.log('`npm start` to healthy (the build output is removed first, then rebuilt):');
measureStart(root, startPort(), (line) => console.log(line))
  .then((result) => {
    Object.assign(record.figures, startFigures(result));
    console.log('');
    summarizeAndRecord(root, record);
  })
  .catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  })
  .finally(() => setTimeout(() => process.exit(), 100).unref());
