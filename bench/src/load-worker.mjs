// Runs autocannon in its own thread, so the load generator does not share the API's event loop.
// Plain JavaScript: worker threads do not inherit the TypeScript loader the benchmark runs under.
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

/** @type {{ origin: string; paths: string[]; connections: number; seconds: number; headers?: Record<string, string> }} */
const job = workerData;
let next = 0;
const options = {
  url: job.origin,
  connections: job.connections,
  duration: job.seconds,
  timeout: 10,
  requests: [
    {
      method: 'GET',
      ...(job.headers ? { headers: job.headers } : {}),
      // Each request takes the next path of the shared list, so connections do not march in step.
      setupRequest: (req) => ({ ...req, path: job.paths[next++ % job.paths.length] }),
    },
  ],
};
// Inside a worker thread autocannon hands back raw histograms; aggregate them as it would on the main thread.
const result = autocannon.aggregateResult([await autocannon(options)], options);
parentPort.postMessage({
  // Completed responses over the measured time; the per-second sample histograms are too coarse for short runs.
  requestsPerSecond: result.requests.total / result.duration,
  p50: result.latency.p50,
  p99: result.latency.p99,
  max: result.latency.max,
  completed: result.requests.total,
  ok: Number(result.statusCodeStats['200']?.count ?? 0),
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  statusCounts: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, Number(s.count)])),
  bytesPerSecond: result.throughput.total / result.duration,
});
