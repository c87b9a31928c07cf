/**
 * The Brotli (quality 11) and gzip (level 9) copies the server sends as they are, written beside
 * every text asset of the web build: compressing on each request uses a fast, weaker setting (the
 * shared chunk was 163 KB over the wire that way, 134 KB at quality 11). `npm run build` writes them
 * as part of the browser's build; `npm start` writes them once the server is up (decision 078).
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The assets that get copies: text, and big enough to gain from them. */
const TEXT = /\.(js|css|svg|json)$/;
const MIN_BYTES = 1024;

/**
 * Writes both copies of each of `files` (paths under `dir`), all at once: zlib runs them on its
 * thread pool, so the slow Brotli pass spreads over the machine's cores. Returns how many it wrote.
 */
export async function precompress(dir: string, files: string[]): Promise<number> {
  const written = await Promise.all(
    files
      .filter((f) => TEXT.test(f))
      .map(async (fileName) => {
        const file = path.join(dir, fileName);
        const content = await fs.promises.readFile(file);
        if (content.length < MIN_BYTES) return 0;
        const [br, gz] = await Promise.all([
          brotli(content, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
          }),
          gzipAsync(content, { level: 9 }),
        ]);
        // Each copy appears whole or not at all: the server may be sending it already.
        for (const [ext, body] of [
          ['br', br],
          ['gz', gz],
        ] as const) {
          await fs.promises.writeFile(`${file}.${ext}.part`, body);
          await fs.promises.rename(`${file}.${ext}.part`, `${file}.${ext}`);
        }
        return 1;
      }),
  );
  return written.reduce<number>((a, b) => a + b, 0);
}

/** The text assets under `dir` still missing a copy (a start stopped before it wrote them all). */
export function missingCopies(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => {
    if (!TEXT.test(f)) return false;
    const file = path.join(dir, f);
    return fs.statSync(file).size >= MIN_BYTES && (!fs.existsSync(`${file}.br`) || !fs.existsSync(`${file}.gz`));
  });
}
