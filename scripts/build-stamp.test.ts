import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BuildTarget, clearStamp, inputsHash, isUpToDate, stampPath, writeStamp } from './build-stamp.ts';

const target: BuildTarget = {
  name: 'app',
  workspace: 'app',
  script: 'build',
  output: 'app/dist',
  witness: 'app/dist/main.js',
  inputs: ['package-lock.json', 'app/src', 'app/package.json'],
};

let root: string;
const write = (rel: string, content: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
};
/** Builds as scripts/build.ts does: stamp cleared, output written, stamp written with the inputs' hash. */
const build = () => {
  const hash = inputsHash(root, target);
  clearStamp(root, target);
  write('app/dist/main.js', 'built');
  writeStamp(root, target, hash);
};
const upToDate = () => isUpToDate(root, target, inputsHash(root, target));

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-stamp-'));
  write('package-lock.json', '{"lockfileVersion":3}');
  write('app/package.json', '{"scripts":{"build":"esbuild src/main.ts"}}');
  write('app/src/main.ts', 'export const a = 1;');
  write('app/src/lib/util.ts', 'export const b = 2;');
  build();
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('a build is skipped only when nothing it reads has changed', () => {
  it('is up to date right after a build, and again when nothing changed', () => {
    expect(upToDate()).toBe(true);
    expect(upToDate()).toBe(true);
  });

  it.each([
    ['a source file changes', () => write('app/src/lib/util.ts', 'export const b = 3;')],
    ['a source file is added', () => write('app/src/lib/more.ts', 'export const c = 4;')],
    ['a source file is removed', () => fs.rmSync(path.join(root, 'app/src/lib/util.ts'))],
    [
      'a source file is renamed',
      () => fs.renameSync(path.join(root, 'app/src/lib/util.ts'), path.join(root, 'app/src/lib/utils.ts')),
    ],
    ['the lockfile changes', () => write('package-lock.json', '{"lockfileVersion":3,"x":1}')],
    ['the build command changes', () => write('app/package.json', '{"scripts":{"build":"esbuild --minify"}}')],
    ['the output was removed', () => fs.rmSync(path.join(root, 'app/dist'), { recursive: true })],
    ['the stamp was removed', () => fs.rmSync(stampPath(root, target))],
    ['the stamp is not JSON', () => fs.writeFileSync(stampPath(root, target), 'garbage')],
  ])('rebuilds when %s', (_label, change) => {
    change();
    expect(upToDate()).toBe(false);
    build();
    expect(upToDate()).toBe(true);
  });

  it('does not rebuild for a changed test file or anything under node_modules', () => {
    write('app/src/main.test.ts', 'it("x", () => {});');
    write('app/src/node_modules/pkg/index.js', 'module.exports = 1;');
    expect(upToDate()).toBe(true);
  });

  it('leaves no matching stamp while a build is under way, so an interrupted build is redone', () => {
    clearStamp(root, target);
    expect(upToDate()).toBe(false);
  });
});
