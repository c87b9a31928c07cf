/**
 * Draws a page or a widget for a component test the way the app does (app/app.tsx's providers, the
 * app's own router on jsdom's address bar), with a fresh query cache, and a user-event session to
 * act as the renter.
 */
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { expect } from 'vitest';
import type { SessionResult, User } from '@ampere/domain/contract/account';
import { App } from '../app/app.tsx';
import { type RouteObject, createBrowserRouter } from '../shared/router/core.ts';
import { RouterProvider } from '../shared/router/react.tsx';
import { setSession } from '../shared/auth/session-store.ts';

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

function rendered(queryClient: QueryClient): Rendered {
  return {
    // No pause between keys: the tests' clocks never need it.
    user: userEvent.setup({ delay: null }),
    queryClient,
    path: () => location.pathname + location.search,
    historyState: () => (window.history.state as { usr?: unknown } | null)?.usr,
  };
}

/**
 * Opens `url` on a router with `routes` and draws it. Any other path the page goes to shows a
 * heading naming it ('Other page'), so a test can tell where the renter ended up.
 */
export async function renderRoutes(routes: RouteObject[], url: string): Promise<Rendered> {
  window.history.replaceState(null, '', url);
  const router = createBrowserRouter([...routes, { path: '*', element: <h1>Other page</h1> }]);
  await router.ready;
  const queryClient = newQueryClient();
  render(
    <App client={queryClient}>
      <RouterProvider router={router} />
    </App>,
  );
  return rendered(queryClient);
}

/** Draws `ui` on a page at `url` (default '/'), for a widget that needs the router (links, navigation). */
export function renderWidget(ui: ReactNode, options: { url?: string } = {}): Promise<Rendered> {
  const url = options.url ?? '/';
  return renderRoutes([{ path: new URL(url, location.href).pathname, element: ui }], url);
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

/**
 * The dialog named `name` once it is open: there, and past its opening transition (it fades in from
 * opacity 0, which is not yet visible to the renter, nor to `toBeVisible`).
 */
export async function findDialog(name: string): Promise<HTMLElement> {
  const dialog = await screen.findByRole('dialog', { name });
  await waitFor(() => expect(dialog).toBeVisible());
  return dialog;
}
