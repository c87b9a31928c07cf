/**
 * `npm run db:template`: makes the embedded database's empty cluster that a new data directory
 * starts from (decision 107): initdb run once by the installed PGlite, its data directory as a tar,
 * Brotli-compressed, in apps/api/pglite-template with the PGlite version that made it. Run it after
 * upgrading PGlite (a unit test says so); commit both files.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { connectPGlite, engineOf } from '../apps/api/src/db/connect.ts';
import { type TemplateStamp, installedPgliteVersion, templateFiles } from '../apps/api/src/db/pglite-template.ts';

const dir = fileURLToPath(new URL('../apps/api/pglite-template', import.meta.url));
const handle = await connectPGlite('memory://');
const engine = engineOf(handle.db);
if (engine?.kind !== 'pglite') throw new Error('connectPGlite made no embedded database.');
// A checkpoint first: the tar then holds the cluster's files as they are, not a log to replay.
await engine.pglite.exec('checkpoint');
const tar = Buffer.from(await (await engine.pglite.dumpDataDir('none')).arrayBuffer());
await handle.close();
const compressed = brotliCompressSync(tar, {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 11,
    // A window as large as Brotli allows: the three databases' files repeat one another.
    [constants.BROTLI_PARAM_LGWIN]: 24,
    [constants.BROTLI_PARAM_SIZE_HINT]: tar.length,
  },
});
const files = templateFiles(dir);
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(files.tarball, compressed);
const stamp: TemplateStamp = {
  pglite: installedPgliteVersion(),
  sha256: createHash('sha256').update(compressed).digest('hex'),
};
fs.writeFileSync(files.stamp, `${JSON.stringify(stamp, null, 2)}\n`);
console.log(
  `Wrote ${path.relative(process.cwd(), files.tarball)}: ${(compressed.length / 1e6).toFixed(2)} MB (a ${(tar.length / 1e6).toFixed(1)} MB data directory), PGlite ${stamp.pglite}.`,
);
