import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { TARGETS } from './targets.ts';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface SizedFile {
  file: string;
  gzipBytes: number;
}

export interface BundleReport {
  files: SizedFile[];
  totalGzipBytes: number;
  map: SizedFile[] | null;
}

/** What /search downloads before the map, gzip, at most (bench/src/targets.ts). */
export const SEARCH_BUNDLE_TARGET_KB = TARGETS.searchBundleKb;

const SEARCH_PAGE = 'src/features/search/routes/search-page.tsx';
const MAP_VIEW = 'src/shared/map/map-view.tsx';

function gzipSize(file: string): number {
  return gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

/** The files a chunk needs before it runs: itself, its static imports (recursively) and their CSS. */
function closure(manifest: Manifest, key: string, into: Set<string>): void {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The build manifest has no ${key}.`);
  if (into.has(chunk.file)) return;
  into.add(chunk.file);
  for (const css of chunk.css ?? []) into.add(css);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, into);
}

/**
 * Builds the web app, with a Vite manifest, into `dist/` of a new temporary folder, and its
 * first-screen server module beside it (`dist-server/`, where the API looks for it); returns `dist/`.
 */
export function buildWeb(root: string): string {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-bench-web-'));
  const outDir = path.join(base, 'dist');
  const vite = path.join(root, 'node_modules', '.bin', 'vite');
  const builds: [string, string[]][] = [
    [vite, ['build', 'apps/web', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'warn']],
    [
      'npm',
      [
        'run',
        'build:server',
        '--workspace',
        'apps/web',
        '--',
        '--outDir',
        path.join(base, 'dist-server'),
        '--logLevel',
        'warn',
      ],
    ],
  ];
  for (const [command, args] of builds) {
    const build = spawnSync(command, args, {
      cwd: root,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (build.status !== 0) {
      removeBuild(outDir);
      throw new Error(`The web build failed:\n${build.stderr || build.stdout}`);
    }
  }
  return outDir;
}

/** Removes a build made by `buildWeb`, server module and all. */
export function removeBuild(outDir: string): void {
  fs.rmSync(path.dirname(outDir), { recursive: true, force: true });
}

/**
 * Measures, gzipped, what /search downloads before the map chunk in a build made by `buildWeb`:
 * the entry and its static imports, the search page chunk and its static imports, and their CSS.
 * The map chunk (with its CSS and basemap data) is measured separately.
 */
export function measureBuilt(outDir: string): BundleReport {
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const before = new Set<string>();
  closure(manifest, 'index.html', before);
  if (manifest[SEARCH_PAGE]) closure(manifest, SEARCH_PAGE, before);
  const sized = (files: Iterable<string>) =>
    [...files].map((file) => ({ file, gzipBytes: gzipSize(path.join(outDir, file)) }));
  const files = sized(before);
  let map: SizedFile[] | null = null;
  if (manifest[MAP_VIEW]) {
    const withMap = new Set<string>();
    closure(manifest, MAP_VIEW, withMap);
    // The basemap data is fetched by the map chunk as soon as it runs, so it counts with the map.
    for (const key of manifest[MAP_VIEW].dynamicImports ?? []) closure(manifest, key, withMap);
    map = sized([...withMap].filter((f) => !before.has(f)));
  }
  return { files, totalGzipBytes: files.reduce((s, f) => s + f.gzipBytes, 0), map };
}

/** Builds the web app into a temporary folder, measures it (see `measureBuilt`) and removes the folder. */
export function measureBundle(root: string): BundleReport {
  const outDir = buildWeb(root);
  try {
    return measureBuilt(outDir);
  } finally {
    removeBuild(outDir);
  }
}

/** The record's figures: KB gzip before the map, and of the map chunk when the build has one. */
export function bundleFigures(b: BundleReport): Record<string, number> {
  return {
    'bundle.search': b.totalGzipBytes / 1024,
    ...(b.map ? { 'bundle.map': b.map.reduce((s, f) => s + f.gzipBytes, 0) / 1024 } : {}),
  };
}
