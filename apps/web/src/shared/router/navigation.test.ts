import { type ComponentType, createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type RouteObject, type Router, type RouterState, createRouter, redirect } from './core.ts';
import { createMemoryHistory } from './memory-history.ts';
import { Outlet, RouterProvider } from './react.tsx';

/** A promise and the means to settle it from outside: a page's code or a loader that answers when the test says. */
function later<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The state the router lands on next (a move through the history is answered a task later). */
function nextLanding(router: Router): Promise<RouterState> {
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (state.navigation.state !== 'idle') return;
      stop();
      resolve(state);
    });
  });
}

const text = (content: string) => () => createElement('p', null, content);
const shown = (router: Router) => renderToString(createElement(RouterProvider, { router }));
const deepest = (state: RouterState) => state.matches.at(-1);

async function start(routes: RouteObject[], first = '/') {
  const history = createMemoryHistory(first);
  const router = createRouter(routes, history);
  await router.ready;
  return { history, router };
}

describe('Back and Forward', () => {
  it('Back shows the previous page again: its address, parameters, carried state and scroll', async () => {
    const read: (string | undefined)[] = [];
    const routes: RouteObject[] = [
      { path: '/search', Component: text('Search') },
      {
        path: '/vehicle/:vin',
        Component: text('A car'),
        loader: ({ params }) => {
          read.push(params.vin);
          return { vin: params.vin };
        },
      },
      { path: '/trip/:id', Component: text('A trip') },
    ];
    const { history, router } = await start(routes, '/search?city=Austin');
    // The renter scrolls down the results, opens a car, then a trip.
    history.scrollY = 640;
    await router.navigate('/vehicle/V1?pickupDate=2030-01-02', { state: { from: 'search' } });
    const carKey = router.state.location.key;
    expect(history.scrollY).toBe(0);
    await router.navigate('/trip/7');
    expect(history.entries).toEqual(['/search?city=Austin', '/vehicle/V1?pickupDate=2030-01-02', '/trip/7']);

    let landing = nextLanding(router);
    await router.navigate(-1);
    let state = await landing;
    expect(state.action).toBe('POP');
    expect(state.location).toMatchObject({
      pathname: '/vehicle/V1',
      search: '?pickupDate=2030-01-02',
      state: { from: 'search' },
      key: carKey,
    });
    expect(deepest(state)?.params).toEqual({ vin: 'V1' });
    expect(state.loaderData[deepest(state)!.id]).toEqual({ vin: 'V1' });
    expect(read).toEqual(['V1', 'V1']);
    expect(shown(router)).toContain('A car');

    landing = nextLanding(router);
    await router.navigate(-1);
    state = await landing;
    expect(state.location.pathname + state.location.search).toBe('/search?city=Austin');
    // Back writes nothing into the history (the entries ahead stay for Forward), so the page is
    // where the renter left it: the layout scrolls only a page opened anew (not a POP) to its top.
    expect(state.action).toBe('POP');
    expect(history.entries).toHaveLength(3);
    expect(history.index).toBe(0);
    expect(history.scrollY).toBe(640);

    landing = nextLanding(router);
    await router.navigate(1);
    state = await landing;
    expect(state.location.pathname).toBe('/vehicle/V1');
    expect(history.index).toBe(1);
  });

  it('a page opened after Back replaces the pages that were ahead', async () => {
    const routes: RouteObject[] = [{ path: '/:page', Component: text('A page') }];
    const { history, router } = await start(routes, '/a');
    await router.navigate('/b');
    await router.navigate('/c');
    const landing = nextLanding(router);
    await router.navigate(-2);
    await landing;
    await router.navigate('/d');
    expect(history.entries).toEqual(['/a', '/d']);
    expect(deepest(router.state)?.params).toEqual({ page: 'd' });
  });
});

describe('a guard sending the renter elsewhere', () => {
  let signedIn = false;
  /** As the app's guards (app/guards.ts) do: a protected page wants a session; sign-in wants none. */
  const routes: RouteObject[] = [
    { path: '/search', Component: text('Search') },
    {
      path: '/trips',
      Component: text('My Trips'),
      loader: ({ request }) => {
        if (signedIn) return null;
        const url = new URL(request.url);
        throw redirect(`/login?redirect=${encodeURIComponent(url.pathname + url.search)}`);
      },
    },
    {
      path: '/login',
      Component: text('Sign in'),
      loader: ({ request }) => {
        if (signedIn) throw redirect(new URL(request.url).searchParams.get('redirect') ?? '/');
        return null;
      },
    },
    {
      path: '/loop',
      loader: () => {
        throw redirect('/loop');
      },
    },
  ];

  it('a protected page sends an anonymous visitor to sign in with the way back; the page never enters the history', async () => {
    signedIn = false;
    const { history, router } = await start(routes, '/search');
    await router.navigate('/trips?tab=past');
    expect(router.state.location.pathname + router.state.location.search).toBe('/login?redirect=%2Ftrips%3Ftab%3Dpast');
    expect(router.state.action).toBe('PUSH');
    expect(history.entries).toEqual(['/search', '/login?redirect=%2Ftrips%3Ftab%3Dpast']);
    expect(shown(router)).toContain('Sign in');
  });

  it('on the first page, the redirect replaces the address the visitor came in by', async () => {
    signedIn = false;
    const { history, router } = await start(routes, '/trips');
    expect(router.state.action).toBe('REPLACE');
    expect(history.entries).toEqual(['/login?redirect=%2Ftrips']);
  });

  it('sign-in sends a signed-in renter on to where the link said', async () => {
    signedIn = true;
    const { history, router } = await start(routes, '/search');
    await router.navigate('/login?redirect=%2Ftrips');
    expect(router.state.location.pathname).toBe('/trips');
    expect(history.entries).toEqual(['/search', '/trips']);
    expect(shown(router)).toContain('My Trips');
  });

  it('a redirect that never ends stops as an error instead of looping', async () => {
    const { router } = await start([{ path: '/loop', ...routes[3], errorElement: 'Something went wrong' }], '/');
    await router.navigate('/loop');
    expect(router.state.error).not.toBeNull();
    expect(shown(router)).toContain('Something went wrong');
  });
});

describe('a navigation overtaken by a later one', () => {
  it("a slow page's code, asked for first, does not land over the page asked for after it", async () => {
    const code = later<{ Component: ComponentType }>();
    const routes: RouteObject[] = [
      { path: '/', Component: text('Home') },
      { path: '/slow', lazy: () => code.promise },
      { path: '/fast', Component: text('Fast') },
    ];
    const { history, router } = await start(routes);
    const slow = router.navigate('/slow');
    expect(router.state.navigation).toMatchObject({ state: 'loading', location: { pathname: '/slow' } });
    await router.navigate('/fast');
    code.resolve({ Component: text('Slow') });
    await slow;
    expect(router.state.location.pathname).toBe('/fast');
    expect(router.state.navigation.state).toBe('idle');
    expect(history.entries).toEqual(['/', '/fast']);
    expect(shown(router)).toContain('Fast');
  });

  it('a loader that answers first still loses to the navigation that came after it', async () => {
    const answers = new Map([
      ['1', later<{ trip: string }>()],
      ['2', later<{ trip: string }>()],
    ]);
    const routes: RouteObject[] = [
      { path: '/', Component: text('Home') },
      { path: '/trip/:id', Component: text('A trip'), loader: ({ params }) => answers.get(params.id!)!.promise },
    ];
    const { history, router } = await start(routes);
    const first = router.navigate('/trip/1');
    const second = router.navigate('/trip/2');
    answers.get('1')!.resolve({ trip: '1' });
    await first;
    // Trip 1's answer came in, but trip 2 was asked for since: the page waits for it.
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.navigation).toMatchObject({ state: 'loading', location: { pathname: '/trip/2' } });
    answers.get('2')!.resolve({ trip: '2' });
    await second;
    expect(router.state.location.pathname).toBe('/trip/2');
    expect(Object.values(router.state.loaderData)).toEqual([{ trip: '2' }]);
    expect(history.entries).toEqual(['/', '/trip/2']);
  });

  it('Back while a page loads drops that page', async () => {
    const code = later<{ Component: ComponentType }>();
    const routes: RouteObject[] = [
      { path: '/', Component: text('Home') },
      { path: '/a', Component: text('Page A') },
      { path: '/slow', lazy: () => code.promise },
    ];
    const { history, router } = await start(routes);
    await router.navigate('/a');
    const slow = router.navigate('/slow');
    const landing = nextLanding(router);
    await router.navigate(-1);
    await landing;
    code.resolve({ Component: text('Slow') });
    await slow;
    expect(router.state.location.pathname).toBe('/');
    expect(history.entries).toEqual(['/', '/a']);
    expect(history.index).toBe(0);
  });

  it("an overtaken guard's redirect is not followed", async () => {
    const check = later();
    const routes: RouteObject[] = [
      { path: '/', Component: text('Home') },
      {
        path: '/trips',
        loader: async () => {
          await check.promise;
          throw redirect('/login');
        },
      },
      { path: '/search', Component: text('Search') },
      { path: '/login', Component: text('Sign in') },
    ];
    const { history, router } = await start(routes);
    const guarded = router.navigate('/trips');
    await router.navigate('/search');
    check.resolve();
    await guarded;
    expect(router.state.location.pathname).toBe('/search');
    expect(history.entries).toEqual(['/', '/search']);
  });
});

describe('errors and unknown addresses', () => {
  const layout = (children: RouteObject[]): RouteObject[] => [
    { element: createElement(Outlet), errorElement: createElement('p', null, 'The app could not go on'), children },
  ];

  it("a loader that throws shows its route's error element in the page's place, at the new address", async () => {
    const routes = layout([
      { path: '/', Component: text('Home') },
      {
        path: '/trip/:id',
        Component: text('Your trip'),
        errorElement: createElement('p', null, 'This trip could not load'),
        loader: () => {
          throw new Error('API down');
        },
      },
    ]);
    const { history, router } = await start(routes);
    await router.navigate('/trip/7');
    expect(router.state.error).toEqual(new Error('API down'));
    expect(router.state.location.pathname).toBe('/trip/7');
    expect(history.entries).toEqual(['/', '/trip/7']);
    const html = shown(router);
    expect(html).toContain('This trip could not load');
    expect(html).not.toContain('Your trip');
    expect(html).not.toContain('The app could not go on');

    // Leaving the page leaves its error behind.
    await router.navigate('/');
    expect(router.state.error).toBeNull();
    expect(shown(router)).toContain('Home');
  });

  it("page code that fails to load shows the nearest error element above it (here the layout's)", async () => {
    const routes = layout([
      { path: '/', Component: text('Home') },
      { path: '/profile', lazy: () => Promise.reject(new Error('The chunk did not load')) },
    ]);
    const { router } = await start(routes);
    await router.navigate('/profile');
    expect(router.state.error).toEqual(new Error('The chunk did not load'));
    expect(shown(router)).toContain('The app could not go on');
  });

  it('an unknown address shows the not-found page, which reads what was asked for', async () => {
    const routes = layout([
      { path: '/', Component: text('Home') },
      { path: '/trip/:id', Component: text('Your trip') },
      { path: '*', Component: text('Page not found') },
    ]);
    const { router } = await start(routes);
    await router.navigate('/trip/7/no-such-page');
    expect(router.state.error).toBeNull();
    expect(deepest(router.state)?.params).toEqual({ '*': 'trip/7/no-such-page' });
    expect(shown(router)).toContain('Page not found');
  });
});
