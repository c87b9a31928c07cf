import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestCookie as cookie } from '../../http/session.ts';
import {
  FIRST_SCREEN_STATE_ID,
  type FirstScreenState,
  LAYOUT_COOKIE,
  SESSION_COOKIE,
  SIGNED_IN_COOKIE,
} from '@ampere/domain/contract/first-screen';

/**
 * Pages whose first screen the server draws (decision 046): signed out, sign-in, search and a car's
 * page, the ones a visitor opens first; signed in, also home, My Trips and a trip. The rest are
 * drawn in the browser.
 */
const SIGNED_OUT_PAGES = /^\/(login|search|vehicle\/[A-Za-z0-9]{1,17})\/?$/;
const SIGNED_IN_PAGES = /^\/(|search|vehicle\/[A-Za-z0-9]{1,17}|trips|trip\/[\w-]{1,64})\/?$/;
const TOKEN = /^[\w-]{1,200}$/;

/** The web build's server module (apps/web/src/app/entry-server.tsx), as the API calls it. */
interface FirstScreenModule {
  setFirstScreenTransport(transport: (url: string, init: RequestInit) => Promise<Response>): void;
  renderFirstScreen(
    url: string,
    wide: boolean,
    token: string | null,
  ): Promise<{ html: string; title: string; state: FirstScreenState } | null>;
}

/** The page's HTML with its first screen drawn in, or null when none is drawn for this request. */
export type DrawFirstScreen = (request: FastifyRequest, html: string) => Promise<string | null>;

/**
 * The layout the browser will draw in: as it last told us, else a guess from its name (phones
 * and tablets narrow). A wrong guess costs the visitor the page drawn twice, as before, not a wrong page.
 */
function guessWide(request: FastifyRequest): boolean {
  const told = cookie(request, LAYOUT_COOKIE);
  if (told === 'wide' || told === 'narrow') return told === 'wide';
  return !/Mobi|Android|iPhone|iPad/i.test(request.headers['user-agent'] ?? '');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const ENTRY = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/**
 * The page's scripts, named in its head to load at once, handed to first-screen.js (the web app's
 * public folder) to load once the drawn screen is painted. HTML not in the build's form is left as it is.
 */
function startAfterPaint(html: string): string {
  const entry = ENTRY.exec(html)?.[1];
  if (!entry) return html;
  const preload = [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]!);
  const boot = `<script defer src="/first-screen.js" data-entry="${entry}" data-preload="${preload.join(' ')}"></script>`;
  return html.replace(MODULE_PRELOAD, '').replace(ENTRY, boot);
}

/**
 * Loads the web build's first-screen module, if it was built, and returns what draws a page's first
 * screen into its HTML. The page's reads go to this server in-process, as the visitor's own requests
 * (their address, so their rate limits). Any failure draws nothing: the page goes as it is, to be drawn in the browser.
 */
export async function loadFirstScreens(app: FastifyInstance, webDist: string): Promise<DrawFirstScreen | null> {
  const file = path.resolve(webDist, '..', 'dist-server', 'entry-server.js');
  if (!fs.existsSync(file)) return null;
  const screens = (await import(pathToFileURL(file).href)) as FirstScreenModule;
  const visitor = new AsyncLocalStorage<string>();
  screens.setFirstScreenTransport(async (url, init) => {
    const res = await app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url,
      headers: { ...(init.headers as Record<string, string>) },
      ...(typeof init.body === 'string' ? { payload: init.body } : {}),
      remoteAddress: visitor.getStore() ?? '127.0.0.1',
    });
    const empty = res.statusCode === 204 || res.statusCode === 304;
    return new Response(empty ? null : res.body, {
      status: res.statusCode,
      headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
    });
  });

  return async (request, html) => {
    const pathname = request.url.split('?')[0]!;
    // Signed in as far as the browser knows (its marker), the renter whose session cookie it sends;
    // signed out otherwise, whatever cookie is left over. Signed in without the session cookie (a
    // sign-in from before the cookie), nothing is drawn.
    const marked = Boolean(cookie(request, SIGNED_IN_COOKIE));
    const token = marked ? cookie(request, SESSION_COOKIE) : null;
    if (marked && !token) return null;
    const drawn = token ? TOKEN.test(token) && SIGNED_IN_PAGES.test(pathname) : SIGNED_OUT_PAGES.test(pathname);
    if (!drawn) return null;
    try {
      // Only the path and query matter to the routes.
      const url = `http://localhost${request.url}`;
      const screen = await visitor.run(request.ip, () => screens.renderFirstScreen(url, guessWide(request), token));
      if (!screen) return null;
      // '<' escaped, so nothing in the data can close the script element.
      const state = JSON.stringify(screen.state).replace(/</g, '\\u003c');
      return startAfterPaint(html)
        .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(screen.title)}</title>`)
        .replace(
          '<div id="root"></div>',
          `<div id="root">${screen.html}</div><script type="application/json" id="${FIRST_SCREEN_STATE_ID}">${state}</script>`,
        );
    } catch (err) {
      request.log.warn({ err, url: request.url }, 'first screen not drawn');
      return null;
    }
  };
}
