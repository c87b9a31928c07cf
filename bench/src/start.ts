/**
 * `npm start` to a healthy server, as a renter's first try runs it: cold (no build output, a new
 * data folder: every build, the embedded database created, migrated and seeded) and then warm
 * (nothing changed: the builds skipped, the same data folder). Runs the real `npm start` in the
 * checkout, on a port of 127.0.0.1, and reads the build's and the server's own timing lines.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUILD_TARGETS, stampPath } from '../../scripts/build-stamp.ts';

export interface StartRun {
  /** From running `npm start` to the first 200 from /healthz. */
  healthySeconds: number;
  /** The build steps' own totals, as they print them (the web build overlaps the server's start). */
  buildSeconds: number;
  /** The server's own start (database, migrations, seed, app), as it prints it. */
  serverSeconds: number;
  /** The build's and the server's timing lines. */
  lines: string[];
}

const LIMIT_MS = 180_000;

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    // npm and the server under it: the whole group.
    process.kill(-child.pid!, 'SIGTERM');
    setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    }, 10_000).unref();
  });
}

async function startOnce(root: string, port: number, dataDir: string): Promise<StartRun> {
  // The embedded database, whatever DATABASE_URL the shell has.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`npm start stopped (exit ${child.exitCode}):\n${output.slice(-2000)}`);
      if (performance.now() - started > LIMIT_MS)
        throw new Error(`npm start was not healthy within ${LIMIT_MS / 1000} s.`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const healthySeconds = (performance.now() - started) / 1000;
    // The server prints its timing line once it listens, just before or after the first answer.
    for (let i = 0; i < 40 && !/Started in/.test(output); i++) await new Promise((r) => setTimeout(r, 50));
    const lines = output.split('\n').filter((l) => /^build: |Started in /.test(l));
    // `npm start` builds the API first, then the web app beside the server's start: two totals.
    const builds = [...output.matchAll(/^build: \d+ of \d+ built in ([\d.]+) s/gm)].map((m) => Number(m[1]));
    const buildSeconds = builds.length ? builds.reduce((a, b) => a + b, 0) : Number.NaN;
    const serverSeconds = Number(/Started in ([\d.]+) s/.exec(output)?.[1] ?? Number.NaN);
    return { healthySeconds, buildSeconds, serverSeconds, lines };
  } finally {
    await stop(child);
  }
}

/** Removes the build output and stamps, then starts twice: cold, then warm on the same data. */
export async function measureStart(
  root: string,
  port: number,
  log: (line: string) => void,
): Promise<{ cold: StartRun; warm: StartRun }> {
  for (const target of BUILD_TARGETS) {
    fs.rmSync(path.join(root, target.output), { recursive: true, force: true });
    fs.rmSync(stampPath(root, target), { force: true });
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-bench-start-'));
  try {
    const cold = await startOnce(root, port, dataDir);
    log(`  cold: healthy after ${cold.healthySeconds.toFixed(2)} s`);
    for (const l of cold.lines) log(`    ${l}`);
    const warm = await startOnce(root, port, dataDir);
    log(`  warm: healthy after ${warm.healthySeconds.toFixed(2)} s`);
    for (const l of warm.lines) log(`    ${l}`);
    return { cold, warm };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function startFigures(r: { cold: StartRun; warm: StartRun }): Record<string, number> {
  return {
    'start.cold': r.cold.healthySeconds,
    'start.cold.build': r.cold.buildSeconds,
    'start.cold.server': r.cold.serverSeconds,
    'start.warm': r.warm.healthySeconds,
    'start.warm.build': r.warm.buildSeconds,
    'start.warm.server': r.warm.serverSeconds,
  };
}

export const startPort = () => Number(process.env.BENCH_START_PORT ?? 4312);
