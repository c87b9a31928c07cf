/**
 * `npm run build` (and the first half of `npm start`): builds the web client, the web app's
 * server module and the API side by side, skipping each one whose inputs have not changed since
 * its last successful build (a stamp beside its output, see build-stamp.ts), and prints each
 * step's time. `--force` rebuilds everything; names (`api`, `web`) limit it to those targets.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BUILD_TARGETS, type BuildTarget, clearStamp, inputsHash, isUpToDate, writeStamp } from './build-stamp.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: 'boolean', default: false } },
});
const chosen = BUILD_TARGETS.filter(
  (t) => positionals.length === 0 || positionals.some((p) => t.workspace === `apps/${p}`),
);
if (chosen.length === 0) {
  console.error('Usage: build.ts [--force] [web] [api]');
  process.exit(2);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Runs the workspace's package.json script directly (no npm in between), its output shown on failure. */
function runScript(target: BuildTarget): Promise<void> {
  const cwd = path.join(root, target.workspace);
  const scripts = (
    JSON.parse(fs.readFileSync(path.join(cwd, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const command = scripts[target.script];
  if (!command) throw new Error(`${target.workspace} has no "${target.script}" script.`);
  const bins = [path.join(cwd, 'node_modules', '.bin'), path.join(root, 'node_modules', '.bin')];
  return new Promise((resolve, reject) => {
    const child = spawn(command, {
      cwd,
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PATH: [...bins, process.env.PATH ?? ''].join(path.delimiter),
      },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${target.name} failed (exit ${code}):\n${output}`)),
    );
  });
}

async function main(): Promise<void> {
  const began = performance.now();
  const plan = chosen.map((target) => ({ target, hash: inputsHash(root, target) }));
  const stale = plan.filter((p) => values.force || !isUpToDate(root, p.target, p.hash));
  const checked = performance.now() - began;
  for (const { target } of plan)
    if (!stale.some((s) => s.target === target)) console.log(`build: ${target.name} unchanged, skipped`);
  const results = await Promise.allSettled(
    stale.map(async ({ target, hash }) => {
      const started = performance.now();
      clearStamp(root, target);
      await runScript(target);
      writeStamp(root, target, hash);
      console.log(`build: ${target.name} ${seconds(performance.now() - started)}`);
    }),
  );
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  for (const f of failed) console.error(f.reason instanceof Error ? f.reason.message : f.reason);
  console.log(
    `build: ${stale.length} of ${plan.length} built in ${seconds(performance.now() - began)} (inputs checked in ${seconds(checked)})`,
  );
  if (failed.length > 0) process.exitCode = 1;
}

await main();
