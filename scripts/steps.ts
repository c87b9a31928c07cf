/**
 * `npm run check` and `npm test`: runs their steps side by side as far as the machine's cores allow,
 * and prints what each step took (decision 059).
 *
 *   npm run check     lint (ESLint, Prettier, import cycles), typecheck (API and domain, web, e2e), unit
 *                     tests in the machine's time zone and in Asia/Tokyo, the web app's component tests:
 *                     the quick feedback before a commit
 *   npm test          the same, then the integration tests (both engines) and the end-to-end tests
 *                     (built first, the build beside the checks)
 *   npm test -- --jobs 1   one step at a time
 *
 * A step takes one core, or all of them (the integration and end-to-end suites spread over their
 * own workers), and starts once enough are free, in the order listed. A step sharing the machine
 * prints its output when it ends; a step that has the machine to itself prints as it goes. After a
 * failure no further step starts; the ones running finish, and the summary names what failed.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

interface Step {
  name: string;
  command: string;
  env?: Record<string, string>;
  /** Cores it keeps busy; 'all' runs it alone. */
  cores?: 1 | 'all';
  /** Steps that must pass first. */
  after?: string[];
}

const CHECK: Step[] = [
  // The longest first, so the short ones fill in beside it.
  { name: 'lint: eslint', command: 'eslint .' },
  { name: 'typecheck: api + domain', command: 'tsc -p tsconfig.json' },
  { name: 'unit', command: 'vitest run --project unit' },
  { name: 'unit (Asia/Tokyo)', command: 'vitest run --project unit', env: { TZ: 'Asia/Tokyo' } },
  { name: 'typecheck: web', command: 'tsc -p apps/web/tsconfig.json' },
  { name: 'typecheck: console', command: 'tsc -p apps/ops/tsconfig.json' },
  { name: 'component', command: 'vitest run --project component' },
  { name: 'lint: prettier', command: 'prettier --check .' },
  { name: 'lint: import cycles', command: 'node --import tsx scripts/check-cycles.ts' },
  { name: 'typecheck: e2e', command: 'tsc -p e2e/tsconfig.json' },
];

const PLANS: Record<string, Step[]> = {
  check: CHECK,
  test: [
    ...CHECK,
    { name: 'build', command: 'npm run build' },
    { name: 'integration', command: 'vitest run --project integration', cores: 'all' },
    { name: 'e2e', command: 'playwright test -c e2e/playwright.config.ts', cores: 'all', after: ['build'] },
  ],
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { jobs: { type: 'string', default: String(os.availableParallelism()) } },
});
const plan = PLANS[positionals[0] ?? ''];
const cores = Number(values.jobs);
if (!plan || positionals.length !== 1 || !Number.isInteger(cores) || cores < 1) {
  console.error(`Usage: steps.ts ${Object.keys(PLANS).join('|')} [--jobs N]`);
  process.exit(2);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'node_modules', '.bin');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

type Outcome = 'passed' | 'failed' | 'not run';
const outcome = new Map<string, { result: Outcome; ms: number }>();
const pending = [...plan];
const running = new Set<Step>();
let busy = 0;
let failed = false;
const began = performance.now();

const need = (step: Step) => (step.cores === 'all' ? cores : 1);

function run(step: Step, alone: boolean): Promise<void> {
  const started = performance.now();
  const child = spawn(step.command, {
    cwd: root,
    shell: true,
    env: { ...process.env, ...step.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
    stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  if (alone) console.log(`\n── ${step.name}: ${step.command}`);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      const ms = performance.now() - started;
      const result: Outcome = code === 0 ? 'passed' : 'failed';
      outcome.set(step.name, { result, ms });
      if (!alone) {
        console.log(`\n── ${step.name}: ${step.command}`);
        process.stdout.write(Buffer.concat(output));
      }
      console.log(`── ${step.name} ${result} in ${seconds(ms)}`);
      if (result === 'failed') failed = true;
      resolve();
    });
  });
}

function startWhatFits(): void {
  for (const step of [...pending]) {
    if (failed) return;
    const ready = (step.after ?? []).every((name) => outcome.get(name)?.result === 'passed');
    const fits = busy + need(step) <= cores || busy === 0;
    if (!ready || !fits) continue;
    pending.splice(pending.indexOf(step), 1);
    running.add(step);
    busy += need(step);
    void run(step, need(step) >= cores).then(() => {
      running.delete(step);
      busy -= need(step);
      startWhatFits();
      if (running.size === 0) finish();
    });
  }
}

function finish(): void {
  console.log(`\n${positionals[0]}: ${plan!.length} steps, ${cores} at a time, ${seconds(performance.now() - began)}`);
  for (const step of plan!) {
    const o = outcome.get(step.name) ?? { result: 'not run' as const, ms: 0 };
    console.log(`  ${o.result.padEnd(8)} ${step.name.padEnd(26)} ${o.result === 'not run' ? '' : seconds(o.ms)}`);
  }
  process.exit(failed || pending.length > 0 ? 1 : 0);
}

startWhatFits();
