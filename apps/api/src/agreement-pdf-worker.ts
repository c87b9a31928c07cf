/**
 * The worker thread that lays out signed agreements as PDFs (decision 101), so a PDF's few
 * milliseconds of layout do not hold up the API's event loop. It answers each `{ id, document }` with
 * `{ id, pdf }` (or `{ id, error }`); the same document gives the same bytes as rendering in place.
 */
import { parentPort } from 'node:worker_threads';
import { type AgreementDocument, renderAgreement } from './features/agreements/document.ts';

const port = parentPort;
if (!port) throw new Error('agreement-pdf-worker runs as a worker thread.');
port.on('message', (message: { id: number; document: AgreementDocument }) => {
  renderAgreement(message.document).then(
    (pdf) => port.postMessage({ id: message.id, pdf }),
    (err: unknown) => port.postMessage({ id: message.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
