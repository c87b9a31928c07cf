/**
 * Runs the builds whose inputs changed (build-stamp.ts), side by side, each as its workspace's
 * package.json script with no npm in between, and prints each one's time. Used by `npm run build`
 * (build.ts) and `npm start` (start.ts).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type BuildTarget, clearStamp, inputsHash, isUpToDate, writeStamp } from './build-stamp.ts';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function runScript(root: string, target: BuildTarget): Promise<void> {
  const cwd = path.join(root, target.workspace);
  const { scripts } = JSON.parse(fs.readFileSync(path.join(cwd, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const command = scripts[target.script];
  if (!command) return Promise.reject(new Error(`${target.workspace} has no "${target.script}" script.`));
  const bins = [path.join(cwd, 'node_modules', '.bin'), path.join(root, 'node_modules', '.bin')];
  return new Promise((resolve, reject) => {
    const child = spawn(command, {
      cwd,
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production', PATH: [...bins, process.env.PATH ?? ''].join(path.delimiter) },
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

export interface BuildPlan {
  target: BuildTarget;
  hash: string;
}

/** The targets whose inputs changed since their last build (all of them with `force`). */
export function staleTargets(
  root: string,
  targets: BuildTarget[],
  force = false,
): { stale: BuildPlan[]; fresh: BuildTarget[] } {
  const plan = targets.map((target) => ({ target, hash: inputsHash(root, target) }));
  const stale = plan.filter((p) => force || !isUpToDate(root, p.target, p.hash));
  return { stale, fresh: plan.filter((p) => !stale.includes(p)).map((p) => p.target) };
}

/** Builds the stale targets side by side; true when every one succeeded. */
export async function runBuilds(root: string, targets: BuildTarget[], force = false): Promise<boolean> {
  const began = performance.now();
  const { stale, fresh } = staleTargets(root, targets, force);
  const checked = performance.now() - began;
  for (const target of fresh) console.log(`build: ${target.name} unchanged, skipped`);
  const results = await Promise.allSettled(
    stale.map(async ({ target, hash }) => {
      const started = performance.now();
      clearStamp(root, target);
      await runScript(root, target);
      writeStamp(root, target, hash);
      console.log(`build: ${target.name} ${seconds(performance.now() - started)}`);
    }),
  );
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  for (const f of failed) console.error(f.reason instanceof Error ? f.reason.message : f.reason);
  console.log(
    `build: ${stale.length} of ${targets.length} built in ${seconds(performance.now() - began)} (inputs checked in ${seconds(checked)})`,
  );
  return failed.length === 0;
}
