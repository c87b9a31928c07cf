/**
 * Lighthouse (mobile, simulated throttling, its defaults) on every renter page of the built app,
 * served as `npm start` serves it: the API on the embedded database with the demo fleet, on a port of
 * 127.0.0.1. A renter signs in and books a trip through the API first, for `/`, `/trips` and
 * `/trip/{id}`. Each audit gets a fresh browser profile, so nothing is cached between runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { SESSION_HEADER } from '@ampere/domain/contract/first-screen';
import puppeteer from 'puppeteer-core';
import { type BundleReport, SEARCH_BUNDLE_TARGET_KB, buildWeb, measureBuilt, removeBuild } from './bundle.ts';
import { TARGETS } from './targets.ts';

export const LIGHTHOUSE_TARGETS = { ...TARGETS.lighthouse, searchBundleKb: SEARCH_BUNDLE_TARGET_KB };

/** Only the flags a headless Debian Chromium needs, and none that would change what the page does. */
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface PageFigures {
  performance: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  bytes: number;
  accessibility: number;
  bestPractices: number;
  /**
   * Lighthouse's own measure of the host's CPU (`environment.benchmarkIndex`, higher is faster):
   * its 4× CPU slowdown is relative to the host, so TBT on a slower host is longer (decision 105).
   */
  benchmarkIndex: number;
}

export interface PageResult {
  page: string;
  url: string;
  runs: PageFigures[];
  median: PageFigures;
  /** What Lighthouse says about the median run's slow parts and failed checks, to read before choosing a fix. */
  notes: string[];
}

export interface LighthouseReport {
  pages: PageResult[];
  /** Median ms from results to the first map pin, per page measured ('/search', '/trip/{id}'). */
  pins: Record<string, number>;
  bundle: BundleReport;
  chromePath: string;
  loadAverage: number[];
}

interface Session {
  session_token: string;
  session_expires_at: string;
  user: unknown;
}

async function call<T>(origin: string, method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${origin}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { [SESSION_HEADER]: token } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url.split('?')[0]} → ${res.status}: ${text.slice(0, 200)}`);
  return (text ? JSON.parse(text) : {}) as T;
}

/** Starts the API on its own (as `npm run serve` does) and waits for its health check. */
async function startApp(root: string, webDist: string, port: number, dataDir: string): Promise<ChildProcess> {
  // The embedded database, whatever DATABASE_URL the shell has.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/api/src/main.ts')], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app stopped while starting (exit ${child.exitCode}).`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return child;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`The app did not answer on port ${port} within two minutes.`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** A renter signed in with a code from the dev outbox, with a full profile and one paid trip a month ahead. */
async function renterWithTrip(origin: string): Promise<{ session: Session; tripId: string; vin: string }> {
  const phone = `+1615${String(2_000_000 + (process.pid % 7_000_000)).padStart(7, '0')}`;
  await call(origin, 'POST', '/api/v1/auth/sms/send', { phone });
  const outbox = await call<{ messages: { body: string }[] }>(
    origin,
    'GET',
    `/api/dev/sms?phone=${encodeURIComponent(phone)}`,
  );
  const code = /\b(\d{6})\b/.exec(outbox.messages[0]?.body ?? '')?.[1];
  if (!code) throw new Error('No sign-in code in the outbox.');
  const session = await call<Session>(origin, 'POST', '/api/v1/auth/sms/verify', { phone, code });
  const token = session.session_token;
  await call(
    origin,
    'PATCH',
    '/api/v1/users/profile',
    {
      first_name: 'Sam',
      last_name: 'Rivera',
      email: 'sam.rivera@example.com',
      birthday: '1990-04-12',
      address_line1: '100 Broadway',
      city: 'Nashville',
      state: 'TN',
      zip_code: '37203',
      country: 'us',
    },
    token,
  );

  const place = (
    await call<{ options: { id: string; timezone: string }[] }>(
      origin,
      'GET',
      '/api/v1/search/autocomplete?query=Nashville',
    )
  ).options[0];
  if (!place) throw new Error('The demo fleet has no Nashville.');
  const day = (n: number) =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: place.timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date(Date.now() + n * 86_400_000));
  const dates = { pickupDate: day(30), returnDate: day(33), pickupTime: '10:00', returnTime: '10:00' };
  const search = await call<{ items: { vin: string; is_self_serve_booking_allowed: boolean }[] }>(
    origin,
    'GET',
    `/api/v1/vehicles/search/${place.id}?${new URLSearchParams(dates).toString()}`,
  );
  const vin = search.items.find((i) => i.is_self_serve_booking_allowed)?.vin;
  if (!vin) throw new Error('No self-serve car in Nashville.');
  const booked = await call<{ reservation: { platform_id: string } }>(
    origin,
    'POST',
    '/api/v1/reservations',
    { vehicleVin: vin, ...dates, addonIds: [], vehicleTimezone: place.timezone },
    token,
  );
  const id = booked.reservation.platform_id;
  const payment = await call<{ stripe: { client_secret: string; deposit_client_secret: string | null } }>(
    origin,
    'POST',
    '/api/v1/payments',
    { platform_id: id },
    token,
  );
  const card = { number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 5, cvc: '123' };
  const charged = await call<{ payment_method: string }>(origin, 'POST', '/api/sandbox/v1/payment_intents/confirm', {
    client_secret: payment.stripe.client_secret,
    card,
  });
  if (payment.stripe.deposit_client_secret) {
    await call(origin, 'POST', '/api/sandbox/v1/payment_intents/confirm', {
      client_secret: payment.stripe.deposit_client_secret,
      payment_method: charged.payment_method,
    });
  }
  await call(origin, 'POST', '/api/v1/reservations/confirm', { platform_id: id }, token);
  // A returning renter's browser holds their profile as last read, name included; the copy from
  // sign-in predates the profile above.
  const { user } = await call<{ user: unknown }>(origin, 'GET', '/api/v1/users', undefined, token);
  return { session: { ...session, user }, tripId: id, vin };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

interface Lhr {
  environment?: { benchmarkIndex?: number };
  categories: Record<string, { score: number | null }>;
  audits: Record<
    string,
    {
      score: number | null;
      numericValue?: number;
      displayValue?: string;
      title: string;
      scoreDisplayMode: string;
      details?: { items?: { node?: { snippet?: string } }[] };
    }
  >;
}

function figures(lhr: Lhr): PageFigures {
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100);
  return {
    performance: score('performance'),
    fcpMs: value('first-contentful-paint'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    bytes: value('total-byte-weight'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
  };
}

/** The LCP element, the opportunities worth more than 50 ms, and every failed accessibility or best-practice check. */
function notesFor(lhr: Lhr): string[] {
  const notes: string[] = [];
  const lcpItem = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0] as
    { items?: { node?: { snippet?: string } }[] } | undefined;
  const snippet = lcpItem?.items?.[0]?.node?.snippet;
  if (snippet) notes.push(`LCP element: ${snippet.slice(0, 120)}`);
  for (const id of [
    'render-blocking-resources',
    'unused-javascript',
    'unused-css-rules',
    'bootup-time',
    'mainthread-work-breakdown',
    'uses-optimized-images',
    'modern-image-formats',
    'uses-responsive-images',
    'uses-text-compression',
    'server-response-time',
    'layout-shifts',
    'lcp-lazy-loaded',
    'prioritize-lcp-image',
  ]) {
    const audit = lhr.audits[id];
    if (audit && audit.score !== null && audit.score < 0.9 && audit.displayValue)
      notes.push(`${id}: ${audit.displayValue}`);
  }
  for (const [id, audit] of Object.entries(lhr.audits)) {
    if (audit.scoreDisplayMode === 'binary' && audit.score === 0 && !notes.some((n) => n.startsWith(id)))
      notes.push(`failed: ${id} (${audit.title})`);
  }
  return notes;
}

/** Signs the browser in as a returning renter has it: the session in localStorage and its cookies. */
async function putSession(port: number, url: string, session: Session): Promise<void> {
  // The app keeps its session in localStorage: put it there, as a returning renter has it.
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` });
  const tab = await browser.newPage();
  await tab.goto(new URL('/healthz', url).href);
  const items = {
    session_token: session.session_token,
    session_expires_at: session.session_expires_at,
    user: JSON.stringify(session.user),
  };
  // A string, run in the page: this file is type-checked for Node, which has no localStorage.
  await tab.evaluate(`for (const [k, v] of Object.entries(${JSON.stringify(items)})) localStorage.setItem(k, v);`);
  // And the cookies its sign-in left (decision 046): the session for the server's drawing, the marker.
  await tab.setCookie(
    { name: 'ampere_session', value: session.session_token, url, httpOnly: true, sameSite: 'Lax' },
    { name: 'ampere_signed_in', value: '1', url, sameSite: 'Lax' },
  );
  await tab.close();
  await browser.disconnect();
}

/**
 * Watches the page from its first byte: when what the renter came for is drawn (the search's count
 * of vehicles, or the trip's title) and when the map's first pin is. Run in the page, as a string.
 */
const PIN_WATCH = `(() => {
  const seen = (window.__pins = { results: null, pin: null, scrolled: false });
  const check = () => {
    const now = performance.now();
    if (seen.results === null) {
      const count = document.getElementById('results-title');
      if ((count && /^\\d+ vehicles?$/.test(count.textContent || '')) || (location.pathname.startsWith('/trip/') && document.querySelector('h1')))
        seen.results = now;
    }
    // A map below the fold starts once the renter scrolls to it: bring it on screen with the results.
    if (seen.results !== null && !seen.scrolled) {
      const map = document.querySelector('[aria-label^="Map of"]');
      if (map) {
        map.scrollIntoView({ block: 'center' });
        seen.scrolled = true;
      }
    }
    // The price pins drawn in place while the map loads count: the renter sees them.
    if (seen.pin === null && document.querySelector('.ampere-map-pin, .ampere-map-preview-pin')) seen.pin = now;
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
})();`;

/**
 * How long after the results (search) or the trip (trip page) the map's first pin is drawn, in ms,
 * at 1280 px with no throttling: what the renter waits for on the map (issue 28).
 */
async function pinsAfterResults(url: string, chromePath: string, session: Session | null): Promise<number> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  try {
    if (session) await putSession(chrome.port, url, session);
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const tab = await browser.newPage();
    await tab.setViewport({ width: 1280, height: 900 });
    await tab.evaluateOnNewDocument(PIN_WATCH);
    await tab.goto(url);
    await tab.waitForFunction('window.__pins && window.__pins.results !== null && window.__pins.pin !== null', {
      timeout: 30_000,
    });
    const seen = (await tab.evaluate('window.__pins')) as { results: number; pin: number };
    await browser.disconnect();
    return Math.max(0, seen.pin - seen.results);
  } finally {
    chrome.kill();
  }
}

async function audit(url: string, chromePath: string, session: Session | null, saveTo: string | null): Promise<Lhr> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  try {
    if (session) await putSession(chrome.port, url, session);
    // Each audit has its own new profile, so the storage reset would only drop the session above.
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      disableStorageReset: true,
      // With BENCH_LIGHTHOUSE_PROFILE the trace also holds V8's samples: which functions ran in each task.
      ...(process.env.BENCH_LIGHTHOUSE_PROFILE
        ? { additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' }
        : {}),
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}.`);
    if (saveTo) {
      fs.writeFileSync(saveTo, typeof result.report === 'string' ? result.report : result.report.join('\n'));
      // The trace beside it, to open in Chromium's Performance panel.
      fs.writeFileSync(saveTo.replace(/\.json$/, '.trace.json'), JSON.stringify(result.artifacts.Trace));
    }
    const lhr = result.lhr as unknown as Lhr & { runtimeError?: { message: string } };
    if (lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.message}`);
    return lhr;
  } finally {
    chrome.kill();
  }
}

export interface LighthouseOptions {
  port: number;
  runs: number;
  chromePath: string;
  /** A folder to keep each run's full JSON report in (to read the audits), or null. */
  saveDir: string | null;
  /** Only these pages (their labels, e.g. '/search'), or all. */
  only: string[] | null;
  log: (line: string) => void;
}

export async function measureLighthouse(root: string, opts: LighthouseOptions): Promise<LighthouseReport> {
  if (!fs.existsSync(opts.chromePath))
    throw new Error(`Chromium not found at ${opts.chromePath}: install Debian's chromium package or set CHROME_PATH.`);
  opts.log('Building the web app…');
  const webDist = buildWeb(root);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ampere-bench-lighthouse-'));
  let app: ChildProcess | null = null;
  try {
    const bundle = measureBuilt(webDist);
    opts.log(`Starting the app on port ${opts.port} (embedded database, demo fleet)…`);
    app = await startApp(root, webDist, opts.port, dataDir);
    const origin = `http://127.0.0.1:${opts.port}`;
    const { session, tripId, vin } = await renterWithTrip(origin);
    const pages: { page: string; path: string; signedIn: boolean }[] = [
      { page: '/search', path: '/search', signedIn: false },
      { page: '/vehicle/{vin}', path: `/vehicle/${vin}`, signedIn: false },
      { page: '/login', path: '/login', signedIn: false },
      { page: '/ (signed in)', path: '/', signedIn: true },
      { page: '/trips', path: '/trips', signedIn: true },
      { page: '/trip/{id}', path: `/trip/${tripId}`, signedIn: true },
    ].filter((p) => !opts.only || opts.only.includes(p.page.split(' ')[0]!));
    if (opts.saveDir) fs.mkdirSync(opts.saveDir, { recursive: true });
    const results: PageResult[] = [];
    for (const p of pages) {
      const url = `${origin}${p.path}`;
      const lhrs: Lhr[] = [];
      for (let run = 0; run < opts.runs; run++) {
        const file = opts.saveDir
          ? path.join(
              opts.saveDir,
              `${p.page.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home'}-${run + 1}.json`,
            )
          : null;
        // Under heavy load Chromium now and then records a broken trace (NO_NAVSTART): try again, twice at most.
        for (let attempt = 1; ; attempt++) {
          try {
            lhrs.push(await audit(url, opts.chromePath, p.signedIn ? session : null, file));
            break;
          } catch (err) {
            if (attempt === 3) throw err;
            opts.log(`  ${p.page}: ${err instanceof Error ? err.message : String(err)}; trying again`);
          }
        }
      }
      const runs = lhrs.map(figures);
      const keys = Object.keys(runs[0]!) as (keyof PageFigures)[];
      const med = Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))])) as unknown as PageFigures;
      // The run whose score is the median's (or nearest) explains it best.
      const nearest =
        lhrs[
          runs.reduce(
            (best, r, i) =>
              Math.abs(r.performance - med.performance) < Math.abs(runs[best]!.performance - med.performance)
                ? i
                : best,
            0,
          )
        ]!;
      results.push({ page: p.page, url: p.path, runs, median: med, notes: notesFor(nearest) });
      opts.log(`  ${p.page}: performance ${runs.map((r) => r.performance).join(', ')}`);
    }
    const pins: Record<string, number> = {};
    for (const p of pages.filter((x) => x.page === '/search' || x.page === '/trip/{id}')) {
      const path_ = p.page === '/search' ? `/search?city=${encodeURIComponent('Nashville, TN')}` : p.path;
      const times: number[] = [];
      for (let run = 0; run < Math.max(3, opts.runs); run++)
        times.push(await pinsAfterResults(`${origin}${path_}`, opts.chromePath, p.signedIn ? session : null));
      pins[p.page] = median(times);
      opts.log(`  ${p.page}: first map pin ${times.map((t) => Math.round(t)).join(', ')} ms after the results`);
    }
    return { pages: results, pins, bundle, chromePath: opts.chromePath, loadAverage: os.loadavg() };
  } finally {
    if (app && app.exitCode === null) {
      const stopped = new Promise((r) => app!.once('exit', r));
      app.kill('SIGTERM');
      await Promise.race([stopped, new Promise((r) => setTimeout(r, 5000))]);
      if (app.exitCode === null) app.kill('SIGKILL');
    }
    removeBuild(webDist);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const mark = (met: boolean) => (met ? '✓' : '✗');
const secs = (msValue: number) => `${(msValue / 1000).toFixed(2)} s`;

/** One row per page (medians), each figure beside its target, then the /search download. */
export function formatLighthouse(report: LighthouseReport, withNotes: boolean): string {
  const t = LIGHTHOUSE_TARGETS;
  const header = [
    'page',
    `perf ≥${t.performance}`,
    'FCP',
    `LCP ≤${t.lcpMs / 1000} s`,
    `TBT ≤${t.tbtMs} ms`,
    `CLS ≤${t.cls}`,
    'bytes',
    `a11y ${t.accessibility}`,
    `BP ${t.bestPractices}`,
  ];
  const rows = report.pages.map(({ page, median: m, runs }) => [
    page,
    `${m.performance} ${mark(m.performance >= t.performance)} (${runs.map((r) => r.performance).join('/')})`,
    secs(m.fcpMs),
    `${secs(m.lcpMs)} ${mark(m.lcpMs <= t.lcpMs)}`,
    `${Math.round(m.tbtMs)} ms ${mark(m.tbtMs <= t.tbtMs)}`,
    `${m.cls.toFixed(3)} ${mark(m.cls <= t.cls)}`,
    `${(m.bytes / 1024).toFixed(0)} KB`,
    `${m.accessibility} ${mark(m.accessibility >= t.accessibility)}`,
    `${m.bestPractices} ${mark(m.bestPractices >= t.bestPractices)}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  const out = [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  const total = report.bundle.totalGzipBytes;
  out.push(
    '',
    `/search first load, JS + CSS gzip: ${(total / 1024).toFixed(1)} KB ${mark(total <= t.searchBundleKb * 1024)} (target ≤ ${t.searchBundleKb} KB)`,
  );
  const runsPerPage = report.pages[0]?.runs.length ?? 0;
  out.push(
    `Medians of ${runsPerPage} run(s) per page; load average at the end ${report.loadAverage.map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} cores.`,
  );
  const index = lighthouseFigures(report)['lighthouse.benchmarkIndex'];
  if (index !== undefined)
    out.push(
      `Host CPU: benchmarkIndex ${Math.round(index)} (Lighthouse's 4× CPU slowdown is relative to it: a lower index, a longer TBT).`,
    );
  if (withNotes) {
    for (const p of report.pages) {
      if (p.notes.length === 0) continue;
      out.push('', `${p.page}:`, ...p.notes.map((n) => `  ${n}`));
    }
  }
  return out.join('\n');
}

/** The record's figures: each page's medians, by the names bench/src/targets.ts gives them. */
export function lighthouseFigures(report: LighthouseReport): Record<string, number> {
  const figures: Record<string, number> = {};
  for (const { page, median: m } of report.pages) {
    figures[`lighthouse.${page}.performance`] = m.performance;
    figures[`lighthouse.${page}.LCP`] = m.lcpMs;
    figures[`lighthouse.${page}.TBT`] = m.tbtMs;
    figures[`lighthouse.${page}.CLS`] = m.cls;
    figures[`lighthouse.${page}.accessibility`] = m.accessibility;
    figures[`lighthouse.${page}.best practices`] = m.bestPractices;
  }
  for (const [page, ms] of Object.entries(report.pins)) figures[`map.pins.${page}`] = ms;
  const indexes = report.pages.map((p) => p.median.benchmarkIndex).filter(Number.isFinite);
  if (indexes.length > 0) figures['lighthouse.benchmarkIndex'] = median(indexes);
  return figures;
}
