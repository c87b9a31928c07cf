/**
 * Build stamps: a hash of everything a build reads (its sources, the lockfile, its configs), written
 * beside its output once the build succeeds. A build whose stamp matches its inputs, and whose output
 * is still there, is skipped by `scripts/build.ts` (decision 065).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface BuildTarget {
  name: string;
  /** The workspace and which of its package.json scripts builds it. */
  workspace: string;
  script: string;
  /** Output folder, relative to the root; the stamp is `<output>.stamp` beside it. */
  output: string;
  /** A file the build always writes: without it the output is not there, whatever the stamp says. */
  witness: string;
  /** Files and folders (relative to the root) whose content decides the output. */
  inputs: string[];
}

const SHARED = ['package-lock.json', 'tsconfig.base.json', 'packages/domain/src', 'packages/domain/package.json'];
const WEB = [
  ...SHARED,
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'scripts/precompress.ts',
  'apps/web/package.json',
  'apps/web/tsconfig.json',
];

const OPS = [
  ...SHARED,
  'apps/ops/src',
  'apps/ops/index.html',
  'apps/ops/vite.config.ts',
  'scripts/precompress.ts',
  'apps/ops/package.json',
  'apps/ops/tsconfig.json',
];

export const BUILD_TARGETS: BuildTarget[] = [
  {
    name: 'web client (vite)',
    workspace: 'apps/web',
    script: 'build:client',
    output: 'apps/web/dist',
    witness: 'apps/web/dist/index.html',
    inputs: WEB,
  },
  {
    name: 'web server module (vite --ssr)',
    workspace: 'apps/web',
    script: 'build:server',
    output: 'apps/web/dist-server',
    witness: 'apps/web/dist-server/entry-server.js',
    inputs: WEB,
  },
  {
    name: 'operator console (vite)',
    workspace: 'apps/ops',
    script: 'build',
    output: 'apps/ops/dist',
    witness: 'apps/ops/dist/index.html',
    inputs: OPS,
  },
  {
    name: 'api (esbuild)',
    workspace: 'apps/api',
    script: 'build',
    output: 'apps/api/dist',
    witness: 'apps/api/dist/main.js',
    inputs: [...SHARED, 'apps/api/src', 'apps/api/package.json'],
  },
];

/** Folders never read as inputs: dependencies and outputs. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'dist-server', '.vite']);
/** Tests sit beside the sources, but no build imports them: changing one rebuilds nothing. */
const TEST_FILE = /\.(test|spec)\.tsx?$/;

function listFiles(root: string, rel: string, into: string[]): void {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) return;
  if (!fs.statSync(full).isDirectory()) {
    if (!TEST_FILE.test(rel)) into.push(rel);
    return;
  }
  for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
    if (entry.isDirectory() && SKIPPED_DIRS.has(entry.name)) continue;
    listFiles(root, path.posix.join(rel, entry.name), into);
  }
}

/**
 * One hash of the inputs' paths and contents, and of how the target is built (its script's command
 * line lives in an input, its workspace's package.json). A file added, removed, renamed or changed
 * changes it.
 */
export function inputsHash(root: string, target: Pick<BuildTarget, 'inputs' | 'script' | 'workspace'>): string {
  const files: string[] = [];
  for (const input of target.inputs) listFiles(root, input, files);
  const hash = createHash('sha256').update(`${target.workspace} ${target.script}\n`);
  for (const file of [...new Set(files)].sort()) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

export const stampPath = (root: string, target: Pick<BuildTarget, 'output'>) =>
  path.join(root, `${target.output}.stamp`);

/** Up to date: the stamp names these inputs and the output is there. */
export function isUpToDate(root: string, target: BuildTarget, hash: string): boolean {
  if (!fs.existsSync(path.join(root, target.witness))) return false;
  try {
    return (JSON.parse(fs.readFileSync(stampPath(root, target), 'utf8')) as { inputs?: string }).inputs === hash;
  } catch {
    return false;
  }
}

/** Before building: an interrupted or failed build must not leave a stamp that matches. */
export function clearStamp(root: string, target: BuildTarget): void {
  fs.rmSync(stampPath(root, target), { force: true });
}

export function writeStamp(root: string, target: BuildTarget, hash: string): void {
  fs.writeFileSync(stampPath(root, target), `${JSON.stringify({ inputs: hash, builtAt: new Date().toISOString() })}\n`);
}
