/**
 * The app's router (decision 048): nested routes matched against the address, page code loaded on
 * demand, and loaders run before a page is shown, so a navigation swaps the old page for the new one
 * in one go. It keeps to the part of React Router's data-router semantics the app uses, at a tenth
 * of its size on the first load. The React side is in react.tsx.
 */
import type { ComponentType, ReactNode } from 'react';

export type Params = Readonly<Record<string, string | undefined>>;

export interface LoaderFunctionArgs {
  request: Request;
  params: Params;
  /** On the server, what the drawing passed along (its query cache); in the browser, nothing. */
  context?: unknown;
}

/** Runs before its route is shown. What it returns is the route's `useLoaderData()`; it may throw a `redirect()`. */
export type Loader = (args: LoaderFunctionArgs) => unknown;

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

function branchOf(chain: Branch['chain'], path: string, index: boolean): Branch {
  const segments = path.split('/').filter(Boolean);
  const names: string[] = [];
  let source = '';
  for (const s of segments) {
    if (s === '*') {
      names.push('*');
      source += '(?:/(.*))?';
    } else if (s.startsWith(':')) {
      names.push(s.slice(1));
      source += '/([^/]+)';
    } else source += `/${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
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
async function runLoaders(matches: Match[], request: Request, context?: unknown): Promise<Record<string, unknown>> {
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
  context?: unknown,
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

/**
 * The browser's router, on the window's address and history. `ready` settles once the first page's
 * code is loaded and, unless `hydrationData` carries their answers from the server, its loaders have
 * run (a guard's redirect is followed before anything is drawn).
 */
export function createBrowserRouter(
  routes: RouteObject[],
  options: { hydrationData?: { loaderData: Record<string, unknown> } } = {},
): Router & { ready: Promise<void> } {
  const match = createMatcher(routes);
  const listeners = new Set<(state: RouterState) => void>();
  const fromWindow = (): Location => {
    const entry = window.history.state as { usr?: unknown; key?: string } | null;
    return locationOf(
      hrefOf(window.location),
      null,
      entry?.usr ?? null,
      typeof entry?.key === 'string' ? entry.key : 'default',
    );
  };
  const first = fromWindow();
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
      loaderData = await runLoaders(matches, new Request(new URL(hrefOf(location), window.location.origin)));
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
    const entry = { usr: location.state, key: location.key };
    if (action === 'PUSH') window.history.pushState(entry, '', hrefOf(location));
    else if (action === 'REPLACE') window.history.replaceState(entry, '', hrefOf(location));
    set({ location, action, matches, loaderData, error, navigation: idle });
  };

  const ready = options.hydrationData
    ? Promise.all(state.matches.map((m) => loadRoute(m.route))).then(() => {})
    : go(first, 'POP');
  window.addEventListener('popstate', () => void go(fromWindow(), 'POP'));

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
        window.history.go(to);
        return Promise.resolve();
      }
      return go(locationOf(to, state.location, carried, newKey()), replace ? 'REPLACE' : 'PUSH');
    },
  };
}
