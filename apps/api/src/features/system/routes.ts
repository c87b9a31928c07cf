import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PRODUCT_NAME } from '@ampere/domain/constants';
import { ClientConfig } from '@ampere/domain/contract/system';
import { isPagePath } from '@ampere/domain/pages';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { realtimeClientConfig } from '../realtime/service.ts';
import { mainPhotoUrl } from '../vehicles/service.ts';
import { loadFirstScreens } from './first-screen.ts';
import { health } from './service.ts';

export function systemRoutes(app: FastifyInstance, deps: Deps): void {
  const { config, db, clock } = deps;
  // `time` is the server's clock, so a test can set the browser's to match (CLOCK_START).
  app.get('/healthz', async (_req, reply) => reply.send(await health(db, clock)));
  route(app, {
    method: 'GET',
    url: '/api/v1/config',
    tag: 'system',
    summary: 'Settings the web app needs (support contacts, map style)',
    response: ClientConfig,
    handler: () => ({
      productName: PRODUCT_NAME,
      supportPhone: config.supportPhone,
      supportEmail: config.supportEmail,
      conciergePhone: config.conciergePhone,
      marketingSiteUrl: config.marketingSiteUrl,
      mapStyleUrl: config.mapStyleUrl ?? null,
      realtime: realtimeClientConfig(config),
    }),
  });
  if (deps.testClock) {
    const movable = deps.testClock;
    route(app, {
      method: 'POST',
      url: '/api/dev/clock',
      tag: 'dev',
      summary:
        "Development only (CLOCK_CONTROL=on): moves the server's clock by advance_minutes (negative moves it back)",
      body: z.object({ advance_minutes: z.number().int().min(-525_600).max(525_600) }),
      response: z.object({ time: z.string() }),
      handler: async ({ body }) => {
        const time = movable.advance(body.advance_minutes * 60_000).toISOString();
        // What the new time makes due (trips going On Rent, holds lapsing) runs now, not at the next minute.
        if (config.jobs === 'in-process')
          for (const job of TIME_DRIVEN_JOBS) await app.jobs.runSoon(job).catch(() => null);
        return { time };
      },
    });
  }
}

/** The jobs the test clock runs at once after moving. */
const TIME_DRIVEN_JOBS = ['expire-unpaid-holds', 'advance-trip-status', 'reauthorize-deposit-holds'];

/**
 * The build names everything under assets/ by its content's hash, so a name never changes meaning:
 * a year and immutable. Anything else (index.html, the icon, the videos) keeps its name across
 * releases, so the browser asks again each time (no-cache still lets it reuse an unchanged copy).
 */
export function cacheControlFor(filePath: string, webDist: string): string {
  const relative = path.relative(webDist, filePath);
  return relative.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

interface PagePreload {
  pattern: string;
  js: string[];
  css: string[];
}

/**
 * index.html for a path, naming the files that path's page loads (`page-preloads.json`, written by
 * the web build) so the browser fetches them with the framework instead of after it has run
 * (decision 044). The HTML is read once; a path no page claims gets index.html as it is.
 */
export function pageHtmlFor(webDist: string): (pathname: string, head?: string) => string {
  const index = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  const listFile = path.join(webDist, 'page-preloads.json');
  const list: PagePreload[] = fs.existsSync(listFile)
    ? (JSON.parse(fs.readFileSync(listFile, 'utf8')) as PagePreload[])
    : [];
  const pages = list.map((page) => {
    const links = [
      ...page.css.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`),
      ...page.js.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`),
    ].join('');
    return { pattern: new RegExp(page.pattern), html: index.replace('</head>', `${links}</head>`) };
  });
  return (pathname, head = '') => {
    const html = pages.find((p) => p.pattern.test(pathname))?.html ?? index;
    return head ? html.replace('</head>', `${head}</head>`) : html;
  };
}

const CAR_PAGE = /^\/vehicle\/([A-Za-z0-9]{1,17})\/?$/;

/**
 * A car page's largest paint is its main photo, whose address the page learns only from its data:
 * named in the HTML, it loads while the page's code does. Nothing for any other page, or when the
 * lookup fails (the page then finds the photo itself).
 */
async function leadPhoto(db: Deps['db'], pathname: string): Promise<string> {
  const vin = CAR_PAGE.exec(pathname)?.[1];
  if (!vin) return '';
  const url = await mainPhotoUrl(db, vin).catch(() => null);
  return url && /^\/[\w./-]+$/.test(url) ? `<link rel="preload" as="image" href="${url}" fetchpriority="high">` : '';
}

/**
 * Serves the built web app; other non-API paths get index.html so the client router answers: with
 * HTTP 404 when no page claims the path (the app then shows its not-found page).
 */
export async function webRoutes(app: FastifyInstance, { config, db }: Deps): Promise<void> {
  const indexFile = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of its text assets (best compression, once): sent as they are.
      preCompressed: true,
      // The static plugin's own header (max-age=0) would overwrite ours, so it is off and we set it.
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', cacheControlFor(filePath.replace(/\.(br|gz)$/, ''), config.webDist));
        // One address, a Brotli, gzip or plain body by the request's Accept-Encoding: caches must keep them apart.
        reply.header('vary', 'accept-encoding');
      },
    });
  }
  // Browsers ask for /favicon.ico wherever a document names no icon (a JSON or PDF one): the app's icon.
  if (hasWeb) app.get('/favicon.ico', (_request, reply) => reply.redirect('/favicon.svg', 301));
  const pageHtml = hasWeb ? pageHtmlFor(config.webDist) : null;
  const drawFirstScreen = hasWeb ? await loadFirstScreens(app, config.webDist) : null;
  const isPage = (url: string) => !url.startsWith('/api/') && !url.startsWith('/media/');
  // Pages are a route of their own (not the not-found handler), so they are compressed like any
  // reply and answer HEAD as GET. A file of the build is its own route and wins over this one.
  app.get('/*', async (request, reply) => {
    if (!isPage(request.url)) return reply.callNotFound();
    if (!pageHtml)
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    const pathname = request.url.split('?')[0]!;
    // A drawn screen names its own lead photo; only a page left to the browser needs the preload.
    const drawn = drawFirstScreen ? await drawFirstScreen(request, pageHtml(pathname)) : null;
    const html = drawn ?? pageHtml(pathname, await leadPhoto(db, pathname));
    return (
      reply
        // An address no page claims is the not-found page, and says so to crawlers and monitors.
        .status(isPagePath(pathname) ? 200 : 404)
        .type('text/html')
        // Asked for afresh each time, and never kept by a shared cache: a signed-in renter's page is theirs.
        .header('cache-control', 'private, no-cache')
        // The first screen depends on whether the browser is signed in and on its layout (decision 046).
        .header('vary', 'cookie, user-agent')
        .send(html)
    );
  });
  app.setNotFoundHandler(async (request, reply) =>
    reply.status(404).send({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: `No route for ${request.method} ${request.url.split('?')[0]}.`,
    }),
  );
}
