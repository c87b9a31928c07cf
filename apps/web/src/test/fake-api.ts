/**
 * The product's API, faked where the web app meets it: `fetch` (shared/api/client.ts's transport,
 * and the analytics batches). A component test says what each call answers, as the server would,
 * and reads the calls made, in order. Nothing inside a component is replaced.
 */
import { vi } from 'vitest';

export interface ApiCall {
  method: string;
  /** The path without the query string, e.g. '/api/v1/payments'. */
  path: string;
  query: URLSearchParams;
  /** The JSON body sent, if any. */
  body: unknown;
  /** The path's parameters, by the names in the route that answered (':id'). */
  params: Record<string, string>;
}

/** What a fake route answers: a status and a JSON body. */
export interface Reply {
  status: number;
  body?: unknown;
}

/** A JSON answer (200 unless told). */
export const ok = (body: unknown, status = 200): Reply => ({ status, body });
/** The API's error shape (its one error handler): a message, and the code and field where it names them. */
export const fails = (status: number, message: string, extra: Record<string, unknown> = {}): Reply => ({
  status,
  body: { message, ...extra },
});

type Handler = (call: ApiCall) => Reply | Promise<Reply>;

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: Handler;
}

export interface FakeApi {
  /** Answers `METHOD /path/:param` with `handler` (a later route for the same call wins). */
  on(route: string, handler: Handler | Reply): FakeApi;
  /** Every call made, in order. */
  readonly calls: ApiCall[];
  /** The calls to one route, e.g. `api.callsTo('POST /api/v1/payments')`. */
  callsTo(route: string): ApiCall[];
  /** Calls no route answered (they got a 404); any fails the test once it has run. */
  readonly unanswered: string[];
}

function compile(route: string, handler: Handler): Route {
  const [method, path] = route.split(' ') as [string, string];
  const names: string[] = [];
  const source = path
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { method: method.toUpperCase(), pattern: new RegExp(`^${source}$`), names, handler };
}

/** The fake of the test running, if it installed one. */
let installed: FakeApi | null = null;

/**
 * After each test (setup.ts): a call that no route answered fails the test, naming the call, so a
 * page that starts asking for something new is noticed rather than shown a 404 in silence.
 */
export function uninstallFakeApi(): void {
  const unanswered = installed?.unanswered ?? [];
  installed = null;
  if (unanswered.length)
    throw new Error(`The page called what the test's fake API does not answer: ${unanswered.join(', ')}`);
}

/**
 * Installs a fake API for the current test (the setup file removes it after each). The config and
 * the analytics batches are answered to begin with, as every page sends them.
 */
export function fakeApi(): FakeApi {
  const routes: Route[] = [];
  const calls: ApiCall[] = [];
  const unanswered: string[] = [];

  const api: FakeApi = {
    on(route, handler) {
      routes.unshift(compile(route, typeof handler === 'function' ? handler : () => handler));
      return api;
    },
    calls,
    callsTo(route) {
      const { method, pattern } = compile(route, () => ok(null));
      return calls.filter((c) => c.method === method && pattern.test(c.path));
    },
    unanswered,
  };
  installed = api;

  api.on('POST /api/v1/events', ok(null, 204)).on(
    'GET /api/v1/config',
    ok({
      productName: 'Ampere',
      supportPhone: '(615) 555-0100',
      supportEmail: 'help@example.com',
      conciergePhone: '(615) 555-0199',
      marketingSiteUrl: '/',
      mapStyleUrl: null,
      realtime: null,
    }),
  );

  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      location.href,
    );
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' && init.body ? (JSON.parse(init.body) as unknown) : undefined;
    const call: ApiCall = { method, path: url.pathname, query: url.searchParams, body, params: {} };
    calls.push(call);
    let reply: Reply | undefined;
    for (const route of routes) {
      const found = route.method === method ? route.pattern.exec(url.pathname) : null;
      if (!found) continue;
      route.names.forEach((name, i) => (call.params[name] = decodeURIComponent(found[i + 1]!)));
      reply = await route.handler(call);
      break;
    }
    if (!reply) {
      unanswered.push(`${method} ${url.pathname}`);
      reply = fails(404, `No fake answers ${method} ${url.pathname}`);
    }
    init.signal?.throwIfAborted();
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    return new Response(reply.status === 204 ? null : text, {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return api;
}
