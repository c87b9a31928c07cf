import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { type RouteObject, createMatcher, redirect, resolveStatic } from './core.ts';

const Page = () => null;

/** A table shaped like the app's: a pathless layout, nested trip pages, a splat. */
function table(): RouteObject[] {
  return [
    {
      handle: 'layout',
      children: [
        { path: '/', handle: 'home' },
        { path: '/search', handle: 'search' },
        { path: '/vehicle/:vin', handle: 'vehicle' },
        {
          path: '/trip/:id',
          children: [
            { index: true, handle: 'trip' },
            { path: 'pay', handle: 'pay' },
            { path: 'extension/confirmed', handle: 'extension confirmed' },
          ],
        },
        { path: '*', handle: 'not found' },
      ],
    },
  ];
}

const deepest = (pathname: string) => createMatcher(table())(pathname)?.at(-1);

describe('matching an address to routes', () => {
  it('picks the static path over a parameter and the splat', () => {
    expect(deepest('/search')?.route.handle).toBe('search');
    expect(deepest('/')?.route.handle).toBe('home');
  });

  it('reads parameters, decoded, and shares them along the match', () => {
    const matches = createMatcher(table())('/trip/AB%2012/pay');
    expect(matches?.map((m) => m.route.handle)).toEqual(['layout', undefined, 'pay']);
    expect(matches?.every((m) => m.params.id === 'AB 12')).toBe(true);
  });

  it('shows an index route at its parent path, and nested paths below it', () => {
    expect(deepest('/trip/7')?.route.handle).toBe('trip');
    expect(deepest('/trip/7/extension/confirmed')?.route.handle).toBe('extension confirmed');
  });

  it('ignores a trailing slash and letter case, as links typed by hand have them', () => {
    expect(deepest('/Search/')?.route.handle).toBe('search');
    expect(deepest('/vehicle/5YJ3/')?.params.vin).toBe('5YJ3');
  });

  it('sends any other address to the splat', () => {
    expect(deepest('/vehicle')?.route.handle).toBe('not found');
    expect(deepest('/trip/7/unknown')?.route.handle).toBe('not found');
    expect(deepest('/no/such/page')?.params['*']).toBe('no/such/page');
  });

  it('keeps a malformed escape as it was rather than failing', () => {
    expect(deepest('/vehicle/%E0%A4%A')?.params.vin).toBe('%E0%A4%A');
  });

  it('gives routes the same ids on every build of the same table', () => {
    const ids = (m: ReturnType<ReturnType<typeof createMatcher>>) => m?.map((x) => x.id);
    expect(ids(createMatcher(table())('/trip/1/pay'))).toEqual(ids(createMatcher(table())('/trip/1/pay')));
    expect(ids(createMatcher(table())('/trip/1/pay'))).toEqual(['0', '0-3', '0-3-1']);
  });
});

describe('resolving a page on the server', () => {
  it('loads the page code and answers each loader with the request and context', async () => {
    const seen: unknown[] = [];
    const queryClient = new QueryClient();
    const routes: RouteObject[] = [
      {
        path: '/vehicle/:vin',
        lazy: async () => ({
          Component: Page,
          loader: ({ request, params, context }) => {
            seen.push(new URL(request.url).search, params.vin, context?.queryClient);
            return { vin: params.vin };
          },
        }),
      },
    ];
    const resolved = await resolveStatic(routes, 'http://x/vehicle/V1?pickupDate=2030-01-02', { queryClient });
    if (!('state' in resolved)) throw new Error('expected a page');
    expect(resolved.state.matches[0]?.route.Component).toBe(Page);
    expect(resolved.state.loaderData).toEqual({ '0': { vin: 'V1' } });
    expect(seen).toEqual(['?pickupDate=2030-01-02', 'V1', queryClient]);
  });

  it('returns the address a guard redirects to', async () => {
    const routes: RouteObject[] = [
      {
        path: '/trips',
        loader: () => {
          throw redirect('/login?redirect=%2Ftrips');
        },
      },
    ];
    expect(await resolveStatic(routes, 'http://x/trips')).toEqual({ redirect: '/login?redirect=%2Ftrips' });
  });

  it("passes a loader's own failure on to the caller", async () => {
    const routes: RouteObject[] = [
      {
        path: '/',
        loader: () => {
          throw new Error('API down');
        },
      },
    ];
    await expect(resolveStatic(routes, 'http://x/')).rejects.toThrow('API down');
  });
});
