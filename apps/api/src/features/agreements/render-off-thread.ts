import { Worker } from 'node:worker_threads';
import { type AgreementDocument, renderAgreement } from './document.ts';

/**
 * Lays out an agreement's PDF in a worker thread (decision 101): the same bytes as `renderAgreement`,
 * without holding the API's event loop for the few milliseconds a PDF takes. One worker per
 * process, started with the routes (`startAgreementWorker`) so the first signatures do not wait for
 * it to load, and left running (it does not keep the process alive). Should the worker fail to start
 * or stop, the PDFs it owed and every later one are laid out here instead, as before.
 */
export function renderAgreementOffThread(document: AgreementDocument): Promise<Uint8Array> {
  if (broken) return renderAgreement(document);
  const w = worker ?? startWorker();
  if (!w) return renderAgreement(document);
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { document, resolve, reject });
    w.postMessage({ id, document });
  });
}

/** Starts the worker ahead of the first signature; harmless if it runs already. */
export function startAgreementWorker(): void {
  if (!broken && !worker) startWorker();
}

/** Where the next PDF will be laid out: for tests, which check the worker really runs. */
export function offThreadState(): 'not started' | 'worker' | 'in place' {
  return broken ? 'in place' : worker ? 'worker' : 'not started';
}

interface Pending {
  document: AgreementDocument;
  resolve: (pdf: Uint8Array) => void;
  reject: (err: unknown) => void;
}

let worker: Worker | null = null;
let broken = false;
let nextId = 0;
const pending = new Map<number, Pending>();

function startWorker(): Worker | null {
  try {
    // From the sources (tsx): a plain module registers the TypeScript loader in the thread first.
    // Built: `agreement-pdf-worker.js` sits beside the bundle's chunks.
    const fromSource = import.meta.url.endsWith('.ts');
    const w = fromSource
      ? new Worker(new URL('../../ts-worker.mjs', import.meta.url), {
          workerData: { entry: new URL('../../agreement-pdf-worker.ts', import.meta.url).href },
        })
      : new Worker(new URL('./agreement-pdf-worker.js', import.meta.url));
    w.unref();
    w.on('message', (m: { id: number; pdf?: Uint8Array; error?: string }) => {
      const job = pending.get(m.id);
      if (!job) return;
      pending.delete(m.id);
      if (m.pdf) job.resolve(m.pdf);
      else job.reject(new Error(m.error ?? 'The agreement could not be laid out.'));
    });
    w.on('error', () => giveUp());
    w.on('exit', () => giveUp());
    worker = w;
    return w;
  } catch {
    giveUp();
    return null;
  }
}

function giveUp(): void {
  broken = true;
  worker = null;
  const owed = [...pending.values()];
  pending.clear();
  for (const job of owed) renderAgreement(job.document).then(job.resolve, job.reject);
}
