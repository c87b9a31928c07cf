/**
 * `npm start`: builds what changed and serves the app. The API's build (under a second) comes
 * first; the server then starts at once and opens, migrates and seeds its database while the web
 * app builds, and waits for that build before it serves pages (decision 065). The Brotli and gzip
 * copies of the web assets are written once the server is up (until then it compresses each reply
 * itself), or finished there if an earlier start was stopped first (decision 078).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_TARGETS } from './build-stamp.ts';
import { runBuilds, staleTargets } from './builder.ts';
import { missingCopies, precompress } from './precompress.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const api = BUILD_TARGETS.filter((t) => t.workspace === 'apps/api');
const web = BUILD_TARGETS.filter((t) => t.workspace !== 'apps/api');

if (!(await runBuilds(root, api))) process.exit(1);
const webStale = staleTargets(root, web).stale.length > 0;
const server = spawn(
  process.execPath,
  [
    '--enable-source-maps',
    path.join(root, 'apps/api/dist/main.js'),
    // The server waits for this process's word that the web build is done (main.ts).
    ...(webStale ? ['--after-web-build'] : []),
  ],
  { cwd: root, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] },
);
// Ctrl-C reaches the server too (same process group); a signal sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    if (server.exitCode === null) server.kill(signal);
  });
let buildFailed = false;
server.once('exit', (code, signal) => process.exit(buildFailed ? 1 : (code ?? (signal ? 1 : 0))));

if (webStale) {
  // The server's first start (the embedded database created, migrated, seeded) is the longer
  // path: the builds, spawned from here from now on, yield the cores to it.
  try {
    os.setPriority(10);
  } catch {
    // Not allowed here: the builds share the cores evenly.
  }
  process.env.AMPERE_PRECOMPRESS = 'later';
  if (await runBuilds(root, web)) {
    if (server.connected) server.send('web-built');
  } else {
    buildFailed = true;
    server.kill('SIGTERM');
  }
} else if (server.connected) {
  server.disconnect();
}

if (!buildFailed) {
  // The renter app's, then the operator console's.
  for (const [dist, what] of [
    ['apps/web/dist', 'web'],
    ['apps/ops/dist', 'operator console'],
  ] as const) {
    const dir = path.join(root, dist);
    const missing = missingCopies(dir);
    if (missing.length === 0) continue;
    const began = performance.now();
    const written = await precompress(dir, missing);
    console.log(
      `Compressed copies of ${written} ${what} assets written in ${((performance.now() - began) / 1000).toFixed(1)} s.`,
    );
  }
}
