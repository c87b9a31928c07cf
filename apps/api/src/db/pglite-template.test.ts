import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { installedPgliteVersion, readTemplateStamp, templateFiles, templateFor } from './pglite-template.ts';

const committed = fileURLToPath(new URL('../../pglite-template', import.meta.url));

describe('the embedded database’s empty-cluster template (decision 107)', () => {
  it('was made by the installed PGlite, and its stamp names the tarball beside it (else: npm run db:template)', () => {
    const stamp = readTemplateStamp(committed);
    expect(stamp, 'apps/api/pglite-template has no stamp: run `npm run db:template`').not.toBeNull();
    expect(stamp!.pglite, 'PGlite was upgraded: run `npm run db:template` and commit both files').toBe(
      installedPgliteVersion(),
    );
    const tarball = fs.readFileSync(templateFiles(committed).tarball);
    expect(createHash('sha256').update(tarball).digest('hex')).toBe(stamp!.sha256);
  });

  const scratch: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-template-'));
    scratch.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is used only for a data directory that holds no cluster yet', () => {
    const location = path.join(tempDir(), 'pgdata');
    expect(templateFor(location, committed)).toBeInstanceOf(Blob);
    fs.mkdirSync(location);
    fs.writeFileSync(path.join(location, 'PG_VERSION'), '17\n');
    expect(templateFor(location, committed)).toBeNull();
  });

  it('is not used when another PGlite made it, or when there is none: initdb runs as before', () => {
    const other = tempDir();
    fs.copyFileSync(templateFiles(committed).tarball, templateFiles(other).tarball);
    const stamp = readTemplateStamp(committed)!;
    fs.writeFileSync(templateFiles(other).stamp, JSON.stringify({ ...stamp, pglite: '0.0.1' }));
    const location = path.join(tempDir(), 'pgdata');
    expect(templateFor(location, other)).toBeNull();
    expect(templateFor(location, tempDir())).toBeNull();
  });
});
