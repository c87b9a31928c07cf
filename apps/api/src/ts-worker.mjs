// Starts a TypeScript worker thread when the API runs from its sources (development, tests, the
// benchmarks): worker threads do not inherit the TypeScript loader the process runs under, so this
// plain module registers it, then loads the entry named in `workerData.entry`. The built API
// starts its workers from their built JavaScript and never uses this.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
