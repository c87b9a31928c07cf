/**
 * `npm run test:any-day`: runs the unit, component, integration and end-to-end tests as if it were several
 * awkward instants, to show the suite passes on any calendar day (docs/decisions/019-tests-on-any-day.md).
 * Not part of `npm test`: it runs every suite once per instant.
 *
 *   npm run test:any-day                                   every suite at every instant
 *   npm run test:any-day -- --suites unit,integration      only those suites
 *   npm run test:any-day -- --at 2027-03-14T07:30:00Z      only that instant ('today' for the machine's)
 *   npm run test:any-day -- --specs booking.spec.ts        only those end-to-end specs
 *
 * The instants are worked out from today, so they stay ahead of it: the next spring-forward and
 * fall-back in the US (01:30 local in Chicago, just before the clocks change), New Year's Eve at
 * 23:30 in Chicago (already 1 January by UTC), the next 29 February (evening in Chicago), and today.
 * Set TEST_DATABASE_URL to run the integration tests on PostgreSQL as well, as CI does.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const HOUR = 3_600_000;

/** The date (UTC midnight) of the n-th Sunday of `month` (0-based) in `year`. */
function nthSunday(year: number, month: number, n: number): number {
  const first = Date.UTC(year, month, 1);
  const toSunday = (7 - new Date(first).getUTCDay()) % 7;
  return first + (toSunday + 7 * (n - 1)) * 24 * HOUR;
}

/** The first of `candidates(year)` for this year or a later one that is still ahead of `now`. */
function next(now: number, candidate: (year: number) => number | null): number {
  for (let year = new Date(now).getUTCFullYear(); ; year++) {
    const at = candidate(year);
    if (at !== null && at > now) return at;
  }
}

function instants(now: number): { name: string; at: string | null }[] {
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return [
    // Second Sunday of March, 01:30 CST (UTC-6): half an hour before the clocks spring forward.
    { name: 'US spring-forward', at: iso(next(now, (y) => nthSunday(y, 2, 2) + 7.5 * HOUR)) },
    // First Sunday of November, 01:30 CDT (UTC-5): half an hour before the clocks fall back.
    { name: 'US fall-back', at: iso(next(now, (y) => nthSunday(y, 10, 1) + 6.5 * HOUR)) },
    // 31 December, 23:30 CST: the last half hour of the year in Chicago, already next year in UTC.
    { name: "New Year's Eve", at: iso(next(now, (y) => Date.UTC(y + 1, 0, 1, 5, 30))) },
    // 29 February, 20:00 CST: a leap day, already 1 March in UTC.
    { name: 'leap day', at: iso(next(now, (y) => (isLeap(y) ? Date.UTC(y, 2, 1, 2, 0) : null))) },
    { name: 'today', at: null },
  ];
}

const { values } = parseArgs({
  options: {
    suites: { type: 'string', default: 'unit,component,integration,e2e' },
    at: { type: 'string' },
    specs: { type: 'string' },
  },
});
const suites = values.suites.split(',').map((s) => s.trim());
for (const s of suites)
  if (!['unit', 'component', 'integration', 'e2e'].includes(s))
    throw new Error(`--suites takes unit, component, integration and e2e (got ${s}).`);
const chosen = values.at
  ? values.at.split(',').map((at) => {
      if (at === 'today') return { name: 'today', at: null };
      if (Number.isNaN(Date.parse(at)) || !/(Z|[+-]\d\d:\d\d)$/.test(at))
        throw new Error(`--at takes ISO 8601 instants with an offset, or 'today' (got ${at}).`);
      return { name: 'chosen', at };
    })
  : instants(Date.now());

function run(label: string, command: string, args: string[], env: Record<string, string>): boolean {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

const results: { instant: string; suite: string; ok: boolean }[] = [];
if (suites.includes('e2e')) {
  if (!run('build', 'npm', ['run', 'build'], {})) process.exit(1);
}
for (const { name, at } of chosen) {
  const instant = at ? `${name} (${at})` : 'today';
  for (const suite of suites) {
    let ok: boolean;
    if (suite === 'e2e') {
      const specs = values.specs ? values.specs.split(',').map((s) => `specs/${s.trim()}`) : [];
      ok = run(
        `${instant} e2e`,
        'npx',
        ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...specs],
        at ? { E2E_NOW: at } : {},
      );
    } else {
      ok = run(`${instant} ${suite}`, 'npm', ['run', `test:${suite}`], at ? { TEST_NOW: at } : {});
    }
    results.push({ instant, suite, ok });
  }
}
console.log('\nTests on any day:');
for (const r of results) console.log(`  ${r.ok ? 'pass' : 'FAIL'}  ${r.suite.padEnd(12)} ${r.instant}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
