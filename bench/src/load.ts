import { Worker } from 'node:worker_threads';

export interface LoadJob {
  origin: string;
  paths: string[];
  connections: number;
  seconds: number;
  /** Headers every request carries (a console session's cookie). */
  headers?: Record<string, string>;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  completed: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCounts: Record<string, number>;
  bytesPerSecond: number;
}

/** Loads `origin` with the paths for `seconds`; gives up if the run overstays by a minute. */
export function runLoad(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: job });
    const limit = setTimeout(
      () => {
        void worker.terminate();
        reject(new Error(`The load run against ${job.origin} did not finish in time.`));
      },
      (job.seconds + 60) * 1000,
    );
    worker.once('message', (result: LoadResult) => {
      clearTimeout(limit);
      void worker.terminate();
      resolve(result);
    });
    worker.once('error', (err) => {
      clearTimeout(limit);
      reject(err);
    });
  });
}
