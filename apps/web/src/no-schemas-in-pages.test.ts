import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The renter's pages never load the schema library (decision 105), nor the phone library's
 * metadata before a page needs it. The web app reads the API's
 * answers by their types only; the contracts' schemas are for the API. One value import of a
 * constant from a domain module that happened to import a contract once put zod and four
 * contracts (100 KB) on the trip page, and evaluating them was its longest task. This walks every
 * runtime import (static, dynamic and re-exports; type-only ones are erased) from the web app's
 * sources into the domain package and fails on any path that reaches zod.
 */
const WEB = path.resolve(import.meta.dirname);
/** The libraries the walk stops at. */
const WATCHED = ['zod', 'libphonenumber-js'] as const;
const DOMAIN = path.resolve(WEB, '../../../packages/domain/src');

const IMPORT = /(?:^|[\n;])\s*(import|export)\s+(type\s+)?([^'"]*?)\s*from\s*'([^']+)'/g;
const SIDE_EFFECT = /(?:^|[\n;])\s*import\s*'([^']+)'/g;
const DYNAMIC = /\bimport\(\s*'([^']+)'\s*\)/g;

/** The specifiers a source file imports at run time: type-only imports left out; `lazy` for `import()`. */
export function runtimeImports(source: string, opts: { lazy?: boolean } = { lazy: true }): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(IMPORT)) {
    const [, , typeOnly, clause = '', from = ''] = m;
    if (typeOnly) continue;
    const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
    if (braces) {
      const names = braces[1]!
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      if (names.length > 0 && names.every((n) => n.startsWith('type '))) continue;
    }
    found.push(from);
  }
  for (const m of source.matchAll(SIDE_EFFECT)) found.push(m[1]!);
  if (opts.lazy !== false) for (const m of source.matchAll(DYNAMIC)) found.push(m[1]!);
  return found;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'test') out.push(...sourceFiles(full));
    } else if (/\.tsx?$/.test(entry.name) && !/\.(test|fake)\.tsx?$|\.d\.ts$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** Where a specifier leads: a file of the web app or the domain, a library watched for, or null. */
function resolve(from: string, specifier: string): string | null {
  for (const library of WATCHED) if (specifier === library || specifier.startsWith(`${library}/`)) return library;
  if (specifier.startsWith('@ampere/domain/'))
    return path.join(DOMAIN, `${specifier.slice('@ampere/domain/'.length)}.ts`);
  if (!specifier.startsWith('.')) return null;
  const target = path.resolve(path.dirname(from), specifier);
  return fs.existsSync(target) ? target : null;
}

/** A path of runtime imports (only the static ones, `lazy: false`) from `start` to `library`, or null. */
function pathTo(start: string, library: (typeof WATCHED)[number], opts: { lazy: boolean }): string[] | null {
  const parent = new Map<string, string>();
  const queue = [start];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const specifier of runtimeImports(fs.readFileSync(file, 'utf8'), opts)) {
      const next = resolve(file, specifier);
      if (next === null || seen.has(next)) continue;
      parent.set(next, file);
      if (next === library) {
        const chain: string[] = [library];
        for (let at = file; at !== undefined; at = parent.get(at)!) chain.unshift(path.relative(WEB, at));
        return chain;
      }
      if (!/\.tsx?$/.test(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return null;
}

describe('the schema library stays out of the renter’s pages', () => {
  it('reads imports the way the bundler keeps them', () => {
    const source = [
      "import { a, type B } from './kept.ts';",
      "import type { C } from './erased.ts';",
      "import { type D, type E } from './erased-too.ts';",
      "import './side-effect.ts';",
      "export { f } from './re-export.ts';",
      "const lazy = () => import('./lazy.tsx');",
      'import {',
      '  g,',
      '  type H,',
      "} from './multi-line.ts';",
    ].join('\n');
    expect(runtimeImports(source).sort()).toEqual(
      ['./kept.ts', './lazy.tsx', './multi-line.ts', './re-export.ts', './side-effect.ts'].sort(),
    );
  });

  it('finds the path when a domain module brings zod in', () => {
    // The domain's contracts do reach zod: the walk must see it.
    expect(pathTo(path.join(DOMAIN, 'contract/booking.ts'), 'zod', { lazy: true })).not.toBeNull();
  });

  it('no file of the web app reaches zod through its runtime imports', () => {
    const reaching = sourceFiles(WEB)
      .map((file) => pathTo(file, 'zod', { lazy: true }))
      .filter((chain) => chain !== null)
      .map((chain) => chain.join(' → '));
    expect(reaching).toEqual([]);
  });
});

describe('the phone library loads only for a number from outside North America', () => {
  it('no file of the web app reaches it through static imports', () => {
    // The one way in is `usePhoneForDisplay`'s import(), for a number it cannot write itself.
    expect(pathTo(path.join(WEB, 'shared/ui/phone-number.tsx'), 'libphonenumber-js', { lazy: true })).not.toBeNull();
    const reaching = sourceFiles(WEB)
      .map((file) => pathTo(file, 'libphonenumber-js', { lazy: false }))
      .filter((chain) => chain !== null)
      .map((chain) => chain.join(' → '));
    expect(reaching).toEqual([]);
  });
});
