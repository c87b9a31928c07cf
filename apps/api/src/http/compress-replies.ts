import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** The encodings this hook writes, in the order it prefers them when a client likes several as much. */
const ENCODINGS = ['br', 'gzip', 'deflate'] as const;
type Encoding = (typeof ENCODINGS)[number];

/** What is worth compressing when it is already whole in memory: JSON, and text (pages, CSV). */
const COMPRESSIBLE = /^(application\/(?:[\w.+-]+\+)?json|text\/[\w.+-]+)\b/i;

/**
 * The encoding to answer in, from an Accept-Encoding header (q-values honoured, `*` counted for
 * what the client does not name), or null for none: not asked, or every encoding refused.
 */
export function chooseEncoding(header: string | string[] | undefined): Encoding | null {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return null;
  const weights = new Map<string, number>();
  for (const part of text.split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q') q = Number(value);
    }
    if (Number.isFinite(q)) weights.set(token, q);
  }
  let best: Encoding | null = null;
  let bestWeight = 0;
  for (const encoding of ENCODINGS) {
    const weight = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

function compress(body: string | Buffer, encoding: Encoding): Buffer {
  switch (encoding) {
    case 'br':
      // Quality 4: most of Brotli's gain at a fraction of its top setting's CPU, for answers made per request.
      return brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 4,
          [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body),
        },
      });
    case 'gzip':
      return gzipSync(body);
    case 'deflate':
      return deflateSync(body);
  }
}

/**
 * Compresses an answer that is already whole in memory (the API's JSON, a page's HTML) with one call,
 * before @fastify/compress would pipe it through a stream: for a few kilobytes the stream's machinery
 * cost more CPU than the compression itself (decision 102). Streams (files, PDFs) and other types are
 * still the plugin's. Same rules as the plugin: only from `threshold` bytes, never an answer that
 * already has an encoding or a request that says `x-no-compression`, and `Vary: Accept-Encoding`.
 * Install after every hook that reads a payload, and before the plugin.
 */
export function installReplyCompression(app: FastifyInstance, opts: { threshold: number }): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    if (Buffer.byteLength(payload) < opts.threshold) return done(null, payload);
    if (request.headers['x-no-compression'] !== undefined || reply.hasHeader('content-encoding'))
      return done(null, payload);
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? 'application/json'))) return done(null, payload);
    const vary = reply.getHeader('vary');
    if (!vary) reply.header('vary', 'accept-encoding');
    else if (!/\baccept-encoding\b/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return done(null, payload);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    done(null, compress(payload, encoding));
  });
}
