import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * One server per Playwright worker (decision 063): the built API, as `npm start` runs it, on a port
 * the system picks and an embedded database of its own. Specs that move the server's clock
 * (CLOCK_CONTROL) or read its dev outbox therefore only ever see their own worker's server, and the
 * workers run side by side.
 */
export interface E2eServer {
  url: string;
  stop(): Promise<void>;
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const main = path.join(root, 'apps/api/dist/main.js');

// Every test signs in and books from this one address, faster than anyone would: lift the request
// limits (their defaults are proved by the API's integration tests), and the per-address SMS limit
// (the per-phone one stays).
const RAISED_RATE_LIMITS = Object.fromEntries(
  ['SIGN_IN', 'LOOKUPS', 'EVENTS', 'KEY_COMMANDS', 'WRITES'].map((kind) => [`RATE_LIMIT_${kind}_PER_MINUTE`, '10000']),
);

/** The line the server prints once it listens (apps/api/src/main.ts). */
const LISTENING = /is running at (http:\/\/localhost:\d+)/;

export async function startServer(options: { now?: string; label: string }): Promise<E2eServer> {
  if (!fs.existsSync(main))
    throw new Error(`The API is not built (${path.relative(root, main)} is missing): run \`npm run build\` first.`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ampere-e2e-${options.label}-`));
  // The embedded database, whatever the shell's DATABASE_URL says.
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--enable-source-maps', main], {
    cwd: root,
    env: {
      ...inherited,
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SMS_SENDS_PER_IP_PER_HOUR: '1000',
      ...RAISED_RATE_LIMITS,
      CLOCK_CONTROL: 'on',
      ...(options.now ? { CLOCK_START: options.now } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr.push(chunk);
    process.stderr.write(chunk);
  });
  const remove = () => fs.rmSync(dataDir, { recursive: true, force: true });
  let url: string;
  try {
    url = await listeningAt(child, () => stderr.join(''));
  } catch (err) {
    child.kill('SIGKILL');
    remove();
    throw err;
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      remove();
    },
  };
}

function listeningAt(child: ChildProcess, errors: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error('The e2e server did not start within 120 s.')), 120_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(new Error(`${err.message}\n${errors()}`));
    };
    child.once('exit', (code, signal) =>
      fail(new Error(`The e2e server exited (${signal ?? code}) before listening.`)),
    );
    const onData = (chunk: string) => {
      seen += chunk;
      const match = LISTENING.exec(seen);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout!.off('data', onData).resume();
      resolve(match[1]!);
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
  });
}
