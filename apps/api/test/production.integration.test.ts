import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts a process the way `npm start` does, with only the given variables (and PATH). */
function start(script: string, env: NodeJS.ProcessEnv): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A server that started listening would never exit on its own: stop it, and the test fails on its output.
    const guard = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('starting in production with the development defaults', () => {
  it('exits non-zero before opening a port, naming each problem', async () => {
    const { code, stdout, stderr } = await start('apps/api/src/main.ts', { NODE_ENV: 'production' });
    expect(code).toBe(1);
    expect(stdout).not.toContain('Ampere is running');
    expect(stderr).toMatch(/^Refusing to start in production \(NODE_ENV=production\)/);
    const named = [
      'SEED_DEMO',
      'TWILIO_ACCOUNT_SID',
      'SMTP_URL',
      'STRIPE_SECRET_KEY',
      'VERIFF_API_KEY',
      'IDENTITY_TWIN_SECRET',
      'AXLE_CLIENT_ID',
      'INSURANCE_TWIN_SECRET',
      'SMARTCAR_ACCESS_TOKEN',
      'REALTIME_SECRET',
      'SIGNED_URL_SECRET',
      'PUBLIC_URL',
    ];
    for (const variable of named) expect(stderr).toContain(variable);
    // One line per problem after the heading, and nothing else: no stack trace, no database error.
    expect(stderr.trim().split('\n')).toHaveLength(1 + named.length);
  });

  it('refuses the worker the same way', async () => {
    const { code, stderr } = await start('apps/api/src/worker.ts', {
      PUBLIC_URL: 'https://rent.example.com',
      CLOCK_CONTROL: 'on',
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^Refusing to start in production \(PUBLIC_URL=https:\/\/rent\.example\.com is a public https address\)/,
    );
    expect(stderr).toContain('unset CLOCK_CONTROL');
  });
});
