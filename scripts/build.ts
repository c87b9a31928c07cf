/**
 * `npm run build`: builds the web client, the web app's server module and the API side by side,
 * skipping each one whose inputs have not changed since its last successful build (decision 065).
 * `--force` rebuilds everything; names (`web`, `api`) limit it to those workspaces.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BUILD_TARGETS } from './build-stamp.ts';
import { runBuilds } from './builder.ts';
import { missingCopies, precompress } from './precompress.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: 'boolean', default: false } },
});
const chosen = BUILD_TARGETS.filter(
  (t) => positionals.length === 0 || positionals.some((p) => t.workspace === `apps/${p}`),
);
if (chosen.length === 0) {
  console.error('Usage: build.ts [--force] [web] [ops] [api]');
  process.exit(2);
}
if (!(await runBuilds(root, chosen, values.force))) process.exitCode = 1;
else if (chosen.some((t) => t.output === 'apps/web/dist')) {
  // A build `npm start` made leaves the copies to its server's start: one stopped first left some out.
  const webDist = path.join(root, 'apps/web/dist');
  await precompress(webDist, missingCopies(webDist));
}
