/**
 * The app's router (decision 048): nested routes matched against the address, page code loaded on
 * demand, and loaders run before a page is shown, so a navigation swaps the old page for the new one
 * in one go. It keeps to the part of React Router's data-router semantics the app uses, at a tenth
 * of its size on the first load. The React side is in react.tsx.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';

export type Params = Readonly<Record<string, string | undefined>>;

/** A path pattern's parameter names, from its text: '/trip/:id/pay' → 'id'; a splat ('*') → '*'. */
export type ParamName<P extends string> = P extends `${infer Head}/${infer Tail}`
  ? SegmentParam<Head> | ParamName<Tail>
  : SegmentParam<P>;
type SegmentParam<S extends string> = S extends `:${infer Name}` ? Name : S extends '*' ? '*' : never;

/**
 * A pattern's parameters as a page under it reads them (`useParams(pattern)`) and a link fills them
 * in (`href(pattern, params)`): each named one a string; the splat's, the rest of the address, may be absent.
 */
export type PathParams<P extends string> = Flat<
  { readonly [K in Exclude<ParamName<P>, '*'>]: string } & { readonly [K in Extract<ParamName<P>, '*'>]?: string }
>;
type Flat<T> = { [K in keyof T]: T[K] };

/** What a drawing on the server hands the loaders: the request's query cache, for the first screen's reads. */
export interface DrawContext {
  queryClient: QueryClient;
}

export interface LoaderFunctionArgs {
  request: Request;
  params: Params;
  /** On the server, what the drawing passed along; in the browser, nothing. */
  context?: DrawContext;
}

/** Runs before its route is shown. What it returns is the route's `useLoaderData()`; it may throw a `redirect()`. */
export type Loader = (args: LoaderFunctionArgs) => unknown;

/** What `useLoaderData<typeof loader>()` gives a page: the loader's answer, awaited (nothing is null). */
export type LoaderData<L extends Loader> =
  Exclude<Awaited<ReturnType<L>>, undefined> | (undefined extends Awaited<ReturnType<L>> ? null : never);

export interface RouteObject {
  /** Relative to the parent's path, or absolute. None: a layout around its children. */
  path?: string;
  /** Shown at the parent's own path. */
  index?: boolean;
  element?: ReactNode;
  /** Shown in this route's place when a loader or a page below it fails. */
  errorElement?: ReactNode;
  Component?: ComponentType;
  loader?: Loader;
  /** The route's page code, loaded when the route is first matched. */
  lazy?: () => Promise<{ Component?: ComponentType; loader?: Loader }>;
  handle?: unknown;
  children?: RouteObject[];
}

export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation carried along (`navigate(to, { state })`), kept in the history entry. */
  state: unknown;
  key: string;
}

export interface Match {
  /** The route's place in the tree ("0-3-1"), the same on the server and in the browser. */
  id: string;
  route: RouteObject;
  params: Params;
}

export interface RouterState {
  location: Location;
  /** How the renter arrived at this location. */
  action: NavigationType;
  matches: Match[];
  /** Each matched route's loader answer, by route id. */
  loaderData: Record<string, unknown>;
  /** A loader's failure, shown by the nearest error element. */
  error: unknown;
  /** A navigation under way: its page loading and its loaders running. */
  navigation: { state: 'idle' | 'loading'; location?: Location };
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export interface Router {
  readonly state: RouterState;
  subscribe(listener: (state: RouterState) => void): () => void;
  /** To `to`, or `delta` steps through the history (-1: back). */
  navigate(to: string | number, options?: NavigateOptions): Promise<void>;
}

class Redirect {
  constructor(readonly to: string) {}
}

/** For a loader to throw: the navigation goes to `to` instead. */
export function redirect(to: string): Redirect {
  return new Redirect(to);
}

interface Branch {
  chain: { route: RouteObject; id: string }[];
  pattern: RegExp;
  names: string[];
  score: number;
}

const joinPaths = (base: string, path: string) => (path.startsWith('/') ? path : `${base.replace(/\/+$/, '')}/${path}`);

/** More specific patterns first: static segments outrank parameters, which outrank a splat; an index outranks its parent. */
function scoreOf(segments: string[], index: boolean): number {
  let score = segments.length + (index ? 2 : 0);
  for (const s of segments) score += s === '*' ? -2 : s.startsWith(':') ? 3 : s === '' ? 1 : 10;
  return score;
}

/** A pattern's parameter names at run time, in order (what `ParamName` reads from its type). */
export const paramNamesOf = (pattern: string): string[] =>
  pattern
    .split('/')
    .filter((s) => s === '*' || s.startsWith(':'))
    .map((s) => (s === '*' ? s : s.slice(1)));

/**
 * The address of `pattern` with its parameters filled in, each escaped: `href('/trip/:id/pay', { id })`.
 * A pattern without parameters takes none.
 */
export function href<P extends string>(
  pattern: P,
  ...[params]: [ParamName<P>] extends [never] ? [] : [PathParams<P>]
): string {
  const values = new Map<string, unknown>(Object.entries(params ?? {}));
  const filled = pattern.split('/').map((s) => {
    if (s !== '*' && !s.startsWith(':')) return s;
    const value = values.get(s === '*' ? s : s.slice(1));
    // The splat is the rest of the address, slashes and all, and may be left out.
    if (s === '*') return typeof value === 'string' ? value : '';
    if (typeof value !== 'string') throw new Error(`href: ${pattern} needs its ${s}.`);
    return encodeURIComponent(value);
  });
  return filled.join('/').replace(/(.)\/+$/, '$1');
}

function branchOf(chain: Branch['chain'], path: string, index: boolean): Branch {
  const segments = path.split('/').filter(Boolean);
  const names = paramNamesOf(path);
  let source = '';
  for (const s of segments) {
    if (s === '*') source += '(?:/(.*))?';
    else if (s.startsWith(':')) source += '/([^/]+)';
    else source += `/${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
  }
  // A trailing slash still matches, and letter case does not matter (as with React Router).
  return { chain, pattern: new RegExp(`^${source}/*$`, 'i'), names, score: scoreOf(segments, index) };
}

function flatten(routes: RouteObject[], parents: Branch['chain'], base: string, parentId: string, out: Branch[]) {
  routes.forEach((route, i) => {
    const id = parentId ? `${parentId}-${i}` : String(i);
    const chain = [...parents, { route, id }];
    const path = route.path === undefined ? base : joinPaths(base, route.path);
    if (route.children) flatten(route.children, chain, path, id, out);
    if (route.path !== undefined || route.index) out.push(branchOf(chain, path, !!route.index));
  });
}

/** Finds the routes a path shows, outermost first; null when none does. */
export type Matcher = (pathname: string) => Match[] | null;

export function createMatcher(routes: RouteObject[]): Matcher {
  const branches: Branch[] = [];
  flatten(routes, [], '/', '', branches);
  // Stable: among equals, the order of the route table decides.
  branches.sort((a, b) => b.score - a.score);
  return (pathname) => {
    for (const branch of branches) {
      const found = branch.pattern.exec(pathname);
      if (!found) continue;
      const params: Record<string, string | undefined> = {};
      branch.names.forEach((name, i) => {
        const raw = found[i + 1];
        if (raw === undefined) return;
        try {
          params[name] = decodeURIComponent(raw);
        } catch {
          params[name] = raw;
        }
      });
      return branch.chain.map(({ route, id }) => ({ id, route, params }));
    }
    return null;
  };
}

/** Loads a matched route's page code once; the route keeps it from then on. */
async function loadRoute(route: RouteObject): Promise<void> {
  const lazy = route.lazy;
  if (!lazy) return;
  const loaded = await lazy();
  // A second navigation may have loaded it meanwhile: the first to finish keeps it.
  if (route.lazy !== lazy) return;
  Object.assign(route, loaded);
  route.lazy = undefined;
}

/** Loads the matched routes' code and runs their loaders. Throws a `Redirect`, or a loader's error. */
async function runLoaders(matches: Match[], request: Request, context?: DrawContext): Promise<Record<string, unknown>> {
  await Promise.all(matches.map((m) => loadRoute(m.route)));
  const answers = await Promise.all(matches.map((m) => m.route.loader?.({ request, params: m.params, context })));
  const data: Record<string, unknown> = {};
  matches.forEach((m, i) => {
    if (m.route.loader) data[m.id] = answers[i] ?? null;
  });
  return data;
}

export const hrefOf = (l: Pick<Location, 'pathname' | 'search' | 'hash'>) => l.pathname + l.search + l.hash;

/** `to` (an absolute path or address, or `?query` / `#hash` on the page `from`) as a path, query and hash. */
export function resolvePath(to: string, from: Location | null): Pick<Location, 'pathname' | 'search' | 'hash'> {
  const { pathname, search, hash } = new URL(to, `http://app${from ? hrefOf(from) : '/'}`);
  return { pathname, search, hash };
}

function locationOf(to: string, from: Location | null, state: unknown, key: string): Location {
  return { ...resolvePath(to, from), state: state ?? null, key };
}

const newKey = () => Math.random().toString(36).slice(2, 10);
const idle: RouterState['navigation'] = { state: 'idle' };

/** A loader answers only so many redirects in a row before the navigation gives up. */
const MAX_REDIRECTS = 10;

/**
 * The server's side (a page's first screen): the routes for `url`, their code loaded and their
 * loaders run with `context`. Where a loader redirects, the address it names instead.
 */
export async function resolveStatic(
  routes: RouteObject[],
  url: string,
  context?: DrawContext,
): Promise<{ redirect: string } | { state: RouterState }> {
  const location = locationOf(url, null, null, 'default');
  const matches = createMatcher(routes)(location.pathname) ?? [];
  try {
    const loaderData = await runLoaders(matches, new Request(url), context);
    return { state: { location, action: 'POP', matches, loaderData, error: null, navigation: idle } };
  } catch (error) {
    if (error instanceof Redirect) return { redirect: error.to };
    throw error;
  }
}

/** A router that stays on one state: the server's, drawing a page. */
export function createStaticRouter(state: RouterState): Router {
  return {
    state,
    subscribe: () => () => {},
    navigate: () => Promise.reject(new Error('A page drawn on the server cannot navigate.')),
  };
}

/** What the router keeps in a history entry: what the navigation carried, and the entry's key. */
export interface HistoryEntry {
  usr: unknown;
  key: string;
}

/**
 * Where the router keeps its addresses: the window's history in the browser (`browserHistory`), a
 * list in the router's tests (memory-history.ts). A move through it (`go`) is not the router's doing:
 * like the browser's Back, it is reported to `listen`'s callback, which the router answers.
 */
export interface RouterHistory {
  /** The origin the loaders' requests are made against. */
  readonly origin: string;
  /** The current entry's address (path, query and hash) and what the router stored with it, if anything. */
  current(): { href: string; entry: Partial<HistoryEntry> | null };
  push(entry: HistoryEntry, href: string): void;
  replace(entry: HistoryEntry, href: string): void;
  go(delta: number): void;
  listen(onMove: () => void): void;
}

/** The window's address and history. */
export function browserHistory(): RouterHistory {
  return {
    origin: window.location.origin,
    current: () => ({
      href: hrefOf(window.location),
      entry: window.history.state as Partial<HistoryEntry> | null,
    }),
    push: (entry, href) => window.history.pushState(entry, '', href),
    replace: (entry, href) => window.history.replaceState(entry, '', href),
    go: (delta) => window.history.go(delta),
    listen: (onMove) => window.addEventListener('popstate', onMove),
  };
}

export interface RouterOptions {
  /** The first page's loader answers, drawn on the server: its loaders do not run again. */
  hydrationData?: { loaderData: Record<string, unknown> };
}

/**
 * The browser's router, on the window's address and history. `ready` settles once the first page's
 * code is loaded and, unless `hydrationData` carries their answers from the server, its loaders have
 * run (a guard's redirect is followed before anything is drawn).
 */
export function createBrowserRouter(
  routes: RouteObject[],
  options: RouterOptions = {},
): Router & { ready: Promise<void> } {
  return createRouter(routes, browserHistory(), options);
}

/** A router on `history`: the browser's (createBrowserRouter), or a list of addresses in tests. */
export function createRouter(
  routes: RouteObject[],
  history: RouterHistory,
  options: RouterOptions = {},
): Router & { ready: Promise<void> } {
  const match = createMatcher(routes);
  const listeners = new Set<(state: RouterState) => void>();
  const fromHistory = (): Location => {
    const { href, entry } = history.current();
    return locationOf(href, null, entry?.usr ?? null, typeof entry?.key === 'string' ? entry.key : 'default');
  };
  const first = fromHistory();
  let state: RouterState = {
    location: first,
    action: 'POP',
    matches: match(first.pathname) ?? [],
    loaderData: options.hydrationData?.loaderData ?? {},
    error: null,
    navigation: idle,
  };
  const set = (next: Partial<RouterState>) => {
    state = { ...state, ...next };
    for (const listener of listeners) listener(state);
  };

  // Only the latest navigation lands; one overtaken by another is dropped where it stands.
  let latest = 0;
  const go = async (location: Location, action: NavigationType, redirects = 0): Promise<void> => {
    const id = ++latest;
    const matches = match(location.pathname) ?? [];
    set({ navigation: { state: 'loading', location } });
    let loaderData: Record<string, unknown> = {};
    let error: unknown = null;
    try {
      loaderData = await runLoaders(matches, new Request(new URL(hrefOf(location), history.origin)));
    } catch (thrown) {
      if (thrown instanceof Redirect && redirects < MAX_REDIRECTS) {
        if (id !== latest) return;
        // The address left is never shown: a pushed one is never pushed, a popped one is replaced.
        const next = locationOf(thrown.to, location, null, newKey());
        return go(next, action === 'POP' ? 'REPLACE' : action, redirects + 1);
      }
      error = thrown;
    }
    if (id !== latest) return;
    const entry: HistoryEntry = { usr: location.state, key: location.key };
    if (action === 'PUSH') history.push(entry, hrefOf(location));
    else if (action === 'REPLACE') history.replace(entry, hrefOf(location));
    set({ location, action, matches, loaderData, error, navigation: idle });
  };

  const ready = options.hydrationData
    ? Promise.all(state.matches.map((m) => loadRoute(m.route))).then(() => {})
    : go(first, 'POP');
  history.listen(() => void go(fromHistory(), 'POP'));

  return {
    ready,
    get state() {
      return state;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    navigate(to, { replace = false, state: carried } = {}) {
      if (typeof to === 'number') {
        history.go(to);
        return Promise.resolve();
      }
      return go(locationOf(to, state.location, carried, newKey()), replace ? 'REPLACE' : 'PUSH');
    },
  };
}
