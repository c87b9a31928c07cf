import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { type Match, type RouteObject, createMatcher, createRouter, href } from '../shared/router/core.ts';
import { createMemoryHistory } from '../shared/router/memory-history.ts';
import { setDrawnSession } from '../shared/auth/session-store.ts';
import { patterns } from '../shared/paths.ts';
import type { RouteHandle } from './route-handle.ts';
import { createRoutes } from './router.tsx';

/** Every pattern of shared/paths.ts, by its name there. */
function allPatterns(tree: object = patterns, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([name, value]: [string, unknown]) =>
    typeof value === 'string' ? [[prefix + name, value]] : allPatterns(value as object, `${prefix}${name}.`),
  );
}

/** The pattern the route table declares for a match: its own path, or its parent's for an index page. */
const declared = (matches: Match[]) => (matches.at(-1)?.route.index ? matches.at(-2) : matches.at(-1))?.route.path;

/** An address the pattern matches: each parameter a sample value, the splat a path nobody routes. */
const sample = (pattern: string) =>
  pattern.replace(/:([a-z]+)/gi, (_, name: string) => `sample-${name}`).replace(/\/?\*$/, '/no/such/page');

describe("the app's route table and shared/paths.ts", () => {
  const routes = createRoutes(new QueryClient());
  const match = createMatcher(routes);

  it.each(allPatterns())('patterns.%s (%s) is a page of the table', (_, pattern) => {
    const matches = match(sample(pattern));
    expect(declared(matches ?? [])).toBe(pattern);
  });

  it('routes no address the patterns do not name', () => {
    const named = new Set(allPatterns().map(([, p]) => p));
    const walk = (list: RouteObject[]): (string | undefined)[] =>
      list.flatMap((r) => [r.path, ...walk(r.children ?? [])]);
    for (const path of walk(routes)) if (path !== undefined) expect(named).toContain(path);
  });
});

describe("the app's guards, on its route table", () => {
  const signIn = (signedIn: boolean) =>
    setDrawnSession(() => (signedIn ? { token: 't', expiresAt: '2999-01-01T00:00:00Z', user: null } : null));
  afterEach(() => signIn(false));

  async function visit(first: string, then?: string) {
    const history = createMemoryHistory(first);
    const router = createRouter(createRoutes(new QueryClient()), history);
    await router.ready;
    if (then) await router.navigate(then);
    const { pathname, search } = router.state.location;
    const handle = router.state.matches.at(-1)?.route.handle as RouteHandle | undefined;
    return { at: pathname + search, title: handle?.title, entries: history.entries };
  }

  it('a protected page sends an anonymous visitor to sign in, with the way back, and is never in the history', async () => {
    expect(await visit(href(patterns.search), '/trips?tab=past')).toEqual({
      at: '/login?redirect=%2Ftrips%3Ftab%3Dpast',
      title: 'Login',
      entries: ['/search', '/login?redirect=%2Ftrips%3Ftab%3Dpast'],
    });
    expect((await visit('/trip/R-7/pay')).entries).toEqual(['/login?redirect=%2Ftrip%2FR-7%2Fpay']);
  });

  it('an anonymous visit to home goes to search', async () => {
    expect(await visit('/')).toMatchObject({ at: '/search', title: 'Search', entries: ['/search'] });
  });

  it('sign-in sends a signed-in renter on: back where they were, or to the booking they started, or home', async () => {
    signIn(true);
    expect(await visit('/search', '/login?redirect=%2Ftrips')).toMatchObject({ at: '/trips', title: 'My Trips' });
    expect(await visit('/login?redirect=create-booking&vin=V1')).toMatchObject({
      at: '/create-booking?vin=V1',
      title: 'Create Booking',
      entries: ['/create-booking?vin=V1'],
    });
    expect(await visit('/login')).toMatchObject({ at: '/', title: 'Home' });
  });
});
