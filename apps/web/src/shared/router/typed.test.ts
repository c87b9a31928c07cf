import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type LoaderData,
  type LoaderFunctionArgs,
  type ParamName,
  type PathParams,
  type RouteObject,
  createRouter,
  href,
  paramNamesOf,
} from './core.ts';
import { createMemoryHistory } from './memory-history.ts';
import { RouterProvider, useLoaderData, useParams } from './react.tsx';

describe("a pattern's parameters, typed from its text", () => {
  it('names each parameter, and the splat', () => {
    expectTypeOf<ParamName<'/trip/:id/extension/confirmed'>>().toEqualTypeOf<'id'>();
    expectTypeOf<ParamName<'/a/:one/b/:two'>>().toEqualTypeOf<'one' | 'two'>();
    expectTypeOf<ParamName<'/search'>>().toEqualTypeOf<never>();
    expectTypeOf<PathParams<'/vehicle/:vin'>>().toEqualTypeOf<{ readonly vin: string }>();
    expectTypeOf<PathParams<'*'>>().toEqualTypeOf<{ readonly '*'?: string }>();
    expect(paramNamesOf('/a/:one/b/:two/*')).toEqual(['one', 'two', '*']);
  });

  it('fills a pattern in, each parameter escaped, and asks for exactly the parameters it has', () => {
    expect(href('/trip/:id/pay', { id: 'R 1/2' })).toBe('/trip/R%201%2F2/pay');
    expect(href('/')).toBe('/');
    expect(href('/search')).toBe('/search');
    expect(href('/files/*', { '*': 'a/b' })).toBe('/files/a/b');
    // @ts-expect-error a trip's address needs its id
    expect(() => href('/trip/:id')).toThrow('needs its :id');
    // @ts-expect-error the search has no parameters to fill in
    href('/search', { id: '1' });
    // @ts-expect-error a vehicle's parameter is its vin
    expect(() => href('/vehicle/:vin', { id: 'V1' })).toThrow('needs its :vin');
  });
});

describe("a page reading its address's parameters and its loader's answer", () => {
  const drawn = async (routes: RouteObject[], at: string) => {
    const router = createRouter(routes, createMemoryHistory(at));
    await router.ready;
    return renderToString(createElement(RouterProvider, { router }));
  };

  it('reads the parameters its pattern names, typed', async () => {
    function Pay() {
      const params = useParams('/trip/:id');
      expectTypeOf(params).toEqualTypeOf<PathParams<'/trip/:id'>>();
      return createElement('p', null, `Paying for ${params.id}`);
    }
    expect(await drawn([{ path: '/trip/:id/pay', Component: Pay }], '/trip/R-7/pay')).toContain('Paying for R-7');
  });

  it('fails loudly when shown where the address lacks them, rather than reading nothing', async () => {
    function Trip() {
      const { id } = useParams('/trip/:id');
      return createElement('p', null, id);
    }
    await expect(drawn([{ path: '/search', Component: Trip }], '/search')).rejects.toThrow(
      'This page reads :id of /trip/:id, but the address it is shown at has none.',
    );
  });

  it("gets its loader's answer with the loader's type, and null for a loader that answers nothing", async () => {
    const loader = ({ params }: LoaderFunctionArgs) => Promise.resolve({ vin: params.vin ?? '', seats: 5 });
    const quiet = () => undefined;
    expectTypeOf<LoaderData<typeof loader>>().toEqualTypeOf<{ vin: string; seats: number }>();
    expectTypeOf<LoaderData<typeof quiet>>().toEqualTypeOf<null>();
    function Car() {
      const car = useLoaderData<typeof loader>();
      return createElement('p', null, `${car.vin} seats ${car.seats}`);
    }
    function Quiet() {
      return createElement('p', null, `answer: ${String(useLoaderData<typeof quiet>())}`);
    }
    expect(await drawn([{ path: '/vehicle/:vin', Component: Car, loader }], '/vehicle/V1')).toContain('V1 seats 5');
    expect(await drawn([{ path: '/', Component: Quiet, loader: quiet }], '/')).toContain('answer: null');
  });
});
