/**
 * The first screen of a page, drawn on the server (decision 046) for a signed-out visitor or for the
 * renter whose session cookie came with the request: the same routes, page components and reads as
 * in the browser, rendered to HTML so the page shows before its scripts have arrived and run. The
 * browser then takes the screen over (main.tsx) from the state sent beside it. Built by
 * `vite build --ssr` into dist-server/; the API calls `renderFirstScreen`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { QueryClient, dehydrate } from '@tanstack/react-query';
import { createStaticRouter, resolveStatic } from '../shared/router/core.ts';
import { RouterProvider } from '../shared/router/react.tsx';
import type { FirstScreenState } from '@ampere/domain/contract/first-screen';
import { recordZoneReadings } from '@ampere/domain/time';
import { type ApiTransport, setApiTransport } from '../shared/api/client.ts';
import { configQueryOptions } from '../shared/api/config.ts';
import { flagsQueryOptions } from '../shared/flags/get-flags.ts';
import { userQueryOptions } from '../shared/auth/get-user.ts';
import { type Session, setDrawnSession } from '../shared/auth/session-store.ts';
import { setServerLayout } from '../shared/ui/use-wide-layout.ts';
import { App } from './app.tsx';
import { type RouteHandle, pageTitle } from './route-handle.ts';
import { createRoutes } from './router.tsx';

export interface FirstScreen {
  /** The page's markup, for the root element. */
  html: string;
  /** The page's title, as the browser would set it. */
  title: string;
  state: FirstScreenState;
}

/** How the page's reads reach the API from the server: set once, by the server that loads this module. */
export function setFirstScreenTransport(transport: ApiTransport): void {
  setApiTransport(transport);
}

/** The renter each request's screen is drawn for, through every await of its drawing. */
const requestSession = new AsyncLocalStorage<Session | null>();
setDrawnSession(() => requestSession.getStore() ?? null);

/** Resolves once no read of the cache is under way. */
function settled(client: QueryClient): Promise<void> {
  if (client.isFetching() === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = client.getQueryCache().subscribe(() => {
      if (client.isFetching() > 0) return;
      stop();
      resolve();
    });
  });
}

/**
 * The first screen for `url` (absolute), drawn in the wide or narrow layout, for the renter whose
 * session `token` is (from the session cookie) or signed out. Null when there is none to draw: the
 * route sends the visitor elsewhere, the session is refused, or a read failed (the browser then
 * shows the page and its error as it always has).
 */
export async function renderFirstScreen(
  url: string,
  wide: boolean,
  token: string | null = null,
): Promise<FirstScreen | null> {
  // One cache per request: nothing read for one renter is drawn for another.
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
  });
  let session: Session | null = null;
  if (token) {
    // Live for the drawing; the API checks the session itself on every read.
    const drawing = { token, expiresAt: new Date(Date.now() + 60_000).toISOString(), user: null };
    // The renter, as the navbar and pages show them; a session the API refuses draws nothing.
    const user = await requestSession.run(drawing, () => client.fetchQuery(userQueryOptions(token))).catch(() => null);
    if (!user) return null;
    session = { ...drawing, user };
  }
  return requestSession.run(session, () => draw(client, url, wide, session));
}

async function draw(
  client: QueryClient,
  url: string,
  wide: boolean,
  session: Session | null,
): Promise<FirstScreen | null> {
  // What every page reads on opening (the settings, the renter's flags) comes with the screen, so
  // their answers do not redraw it once the app runs. Without them the page still draws, on defaults.
  const config = configQueryOptions();
  const flags = flagsQueryOptions(session?.user?.id ?? null);
  void client.prefetchQuery(config);
  void client.prefetchQuery(flags);
  // Loaders that read for the screen (search's) read into this request's cache. A route that sends
  // the visitor elsewhere, or fails, draws nothing.
  const resolved = await resolveStatic(createRoutes(client), url, { queryClient: client }).catch(() => null);
  if (!resolved || 'redirect' in resolved) return null;
  const { state: routed } = resolved;
  // The route's loader started the page's reads; the screen is drawn with their answers.
  await settled(client);
  for (const queryKey of [config.queryKey, flags.queryKey])
    client.removeQueries({ queryKey, exact: true, predicate: (q) => q.state.status === 'error' });
  if (
    client
      .getQueryCache()
      .getAll()
      .some((q) => q.state.status === 'error')
  )
    return null;
  setServerLayout(wide);
  const [html, zones] = recordZoneReadings(() =>
    renderToString(
      <StrictMode>
        <App client={client}>
          <RouterProvider router={createStaticRouter(routed)} />
        </App>
      </StrictMode>,
    ),
  );
  const deepest = [...routed.matches].reverse().find((m) => m.route.handle);
  const title = pageTitle(deepest?.route.handle as RouteHandle | undefined, deepest?.params ?? {});
  return {
    html,
    title,
    state: {
      wide,
      // Not the renter's own read: its key holds the session token, which stays out of the page.
      queries: dehydrate(client, { shouldDehydrateQuery: (q) => q.queryKey[0] !== 'users' }),
      session: session && { user: session.user },
      zones,
      router: { loaderData: routed.loaderData },
    },
  };
}
