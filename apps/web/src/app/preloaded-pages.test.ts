import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRELOADED_PAGES } from './preloaded-pages.ts';

const web = path.resolve(import.meta.dirname, '../..');
const router = fs.readFileSync(path.join(web, 'src/app/router.tsx'), 'utf8');

describe('pages whose code the HTML names (preloaded-pages.ts)', () => {
  it.each(PRELOADED_PAGES)(
    '$module exists and is what the router loads for $example',
    ({ pattern, module, example }) => {
      expect(fs.existsSync(path.join(web, module))).toBe(true);
      // The router imports it lazily, relative to src/app.
      expect(router).toContain(`import('../${module.replace(/^src\//, '')}')`);
      expect(new RegExp(pattern).test(example)).toBe(true);
    },
  );

  it('no two patterns claim one example path, so each page gets only its own files', () => {
    for (const page of PRELOADED_PAGES) {
      const claims = PRELOADED_PAGES.filter((other) => new RegExp(other.pattern).test(page.example));
      expect(claims.map((c) => c.module)).toEqual([page.module]);
    }
  });
});
