/**
 * Draws a page or a widget for a component test the way the app does (app/app.tsx's providers, the
 * app's own router on jsdom's address bar), with a fresh query cache, and a user-event session to
 * act as the renter.
 */
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import type { SessionResult, User } from '@ampere/domain/contract/account';
import { App } from '../app/app.tsx';
import { type RouteObject, createBrowserRouter } from '../shared/router/core.ts';
import { RouterProvider } from '../shared/router/react.tsx';
import { setSession } from '../shared/auth/session-store.ts';

/** Pages the routes lead to that a test does not draw: each shows its name as a heading. */
const stub = (name: string): RouteObject['element'] => <h1>{name}</h1>;

export interface Rendered {
  user: ReturnType<typeof userEvent.setup>;
  queryClient: QueryClient;
  /** The address bar's path and query, e.g. '/search?searchQuery=1&…'. */
  path(): string;
  /** What the last navigation carried (`navigate(to, { state })`). */
  historyState(): unknown;
}

function newQueryClient(): QueryClient {
  // As the app's (app/query-client.ts), without its one retry: a test's failure is the answer it set.
  return new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
  });
}

function rendered(queryClient: QueryClient, options: { advanceTimers?: (ms: number) => unknown } = {}): Rendered {
  return {
    user: userEvent.setup({ delay: null, ...(options.advanceTimers ? { advanceTimers: options.advanceTimers } : {}) }),
    queryClient,
    path: () => location.pathname + location.search,
    historyState: () => (window.history.state as { usr?: unknown } | null)?.usr,
  };
}

/**
 * Opens `url` on a router with `routes` and draws it. Any other path the page goes to shows a
 * heading naming it ('Other page'), so a test can tell where the renter ended up.
 */
export async function renderRoutes(
  routes: RouteObject[],
  url: string,
  options: { advanceTimers?: (ms: number) => unknown } = {},
): Promise<Rendered> {
  window.history.replaceState(null, '', url);
  const router = createBrowserRouter([...routes, { path: '*', element: stub('Other page') }]);
  await router.ready;
  const queryClient = newQueryClient();
  render(
    <App client={queryClient}>
      <RouterProvider router={router} />
    </App>,
  );
  return rendered(queryClient, options);
}

/** Draws `ui` on a page at `url` (default '/'), for a widget that needs the router (links, navigation). */
export function renderWidget(
  ui: ReactNode,
  options: { url?: string; advanceTimers?: (ms: number) => unknown } = {},
): Promise<Rendered> {
  const url = options.url ?? '/';
  const path = new URL(url, location.href).pathname;
  return renderRoutes([{ path, element: ui }], url, options);
}

/** Signs the renter in, as the login page would have left the browser. */
export function signIn(user: User): void {
  const session: SessionResult = {
    session_token: `test-session-${user.id}`,
    session_expires_at: new Date(Date.now() + 7 * 24 * 3_600_000).toISOString(),
    user,
  };
  setSession(session);
}

export { stub as stubPage };
