import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';

/**
 * The embedded database's first start without initdb (decision 107). A new data directory is
 * normally made by PostgreSQL's initdb, run in WebAssembly: about five seconds of CPU, the largest
 * part of a first `npm start`. The same empty cluster (template0, template1, postgres; no tables of
 * ours, no extensions) is kept in the repository as a tarball of its data directory, made by
 * `npm run db:template` with the PGlite version it was made with, and a new data directory starts
 * as a copy of it. With another PGlite installed the tarball is not used, initdb runs as before,
 * and a unit test says to make the tarball again.
 */

export interface TemplateStamp {
  /** The PGlite version that made the cluster; another version's initdb may differ. */
  pglite: string;
  /** SHA-256 of the compressed tarball. */
  sha256: string;
}

/** The tarball (Brotli-compressed tar of the data directory) and its stamp, in apps/api/pglite-template. */
export const templateFiles = (dir: string) => ({
  tarball: path.join(dir, 'initdb.tar.br'),
  stamp: path.join(dir, 'initdb.json'),
});

/** The PGlite version installed for this package. */
export function installedPgliteVersion(): string {
  // The package's exports do not include its package.json: found from its entry point instead.
  let dir = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('The installed PGlite has no package.json.');
    dir = up;
  }
}

/** The stamp in `dir`, or null when there is none. */
export function readTemplateStamp(dir: string): TemplateStamp | null {
  const { stamp } = templateFiles(dir);
  return fs.existsSync(stamp) ? (JSON.parse(fs.readFileSync(stamp, 'utf8')) as TemplateStamp) : null;
}

/**
 * The template as PGlite's `loadDataDir` takes it, for a data directory that does not exist yet;
 * null when the directory already holds a cluster, or when the template is missing or was made by
 * another PGlite.
 */
export function templateFor(location: string, dir: string): Blob | null {
  if (fs.existsSync(path.join(location, 'PG_VERSION'))) return null;
  const stamp = readTemplateStamp(dir);
  if (!stamp || stamp.pglite !== installedPgliteVersion()) return null;
  return new Blob([brotliDecompressSync(fs.readFileSync(templateFiles(dir).tarball))]);
}
