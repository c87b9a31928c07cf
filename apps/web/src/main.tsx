import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
// Before anything else is evaluated: the rest is evaluated in a task of its own.
import './app/after-react.ts';
import { type DehydratedState, hydrate } from '@tanstack/react-query';
import { type RouteObject, createBrowserRouter } from './shared/router/core.ts';
import { RouterProvider } from './shared/router/react.tsx';
import { FIRST_SCREEN_STATE_ID, type FirstScreenState, LAYOUT_COOKIE } from '@ampere/domain/contract/first-screen';
import { seedZoneReadings } from '@ampere/domain/time';
import { App } from './app/app.tsx';
import { queryClient } from './app/query-client.ts';
import { createRoutes } from './app/router.tsx';
import type { User } from '@ampere/domain/contract/account';
import { getSession, setDrawnSession, setSessionUser } from './shared/auth/session-store.ts';
import { isWideWindow, setServerLayout } from './shared/ui/use-wide-layout.ts';
import { startWithoutTakeOver } from './shared/ui/use-in-browser.ts';

/** The first screen the server drew and the state it drew it from (decision 046), if it drew one. */
function drawnScreen(): FirstScreenState | null {
  const script = document.getElementById(FIRST_SCREEN_STATE_ID);
  if (!script?.textContent) return null;
  try {
    return JSON.parse(script.textContent) as FirstScreenState;
  } catch {
    return null;
  }
}

/**
 * Starts the app on the page: takes over the screen the server drew (`hydrationData` given), or
 * draws the page afresh. The page's modules load (and, drawn afresh, its guards run) first either
 * way, so a drawn screen stays until the page replaces it in one go.
 */
async function run(routes: RouteObject[], hydrationData?: FirstScreenState['router']): Promise<void> {
  const router = createBrowserRouter(routes, { hydrationData });
  await router.ready;
  const app = (
    <StrictMode>
      <App client={queryClient}>
        <RouterProvider router={router} />
      </App>
    </StrictMode>
  );
  const root = document.getElementById('root')!;
  // As a transition, the take-over yields to the renter's input rather than holding the page in one task.
  if (hydrationData) startTransition(() => void hydrateRoot(root, app));
  else {
    startWithoutTakeOver();
    createRoot(root).render(app);
  }
}

async function start() {
  const wide = isWideWindow();
  // The server draws the next first screen in this layout.
  document.cookie = `${LAYOUT_COOKIE}=${wide ? 'wide' : 'narrow'}; path=/; max-age=31536000; samesite=lax`;
  const routes = createRoutes(queryClient);
  const drawn = drawnScreen();
  // The zones' offsets and names the server read hold for any renter, taken over or drawn afresh.
  if (drawn?.zones) seedZoneReadings(drawn.zones);
  const session = getSession();
  // The screen is taken over when it was drawn for this browser as it is: signed out, or signed in
  // (with the renter as the server knew them), and in this layout. Otherwise the page is drawn afresh.
  const sameRenter = drawn && (drawn.session ? !!session : !session);
  // What the server read for this renter is good either way: a page drawn afresh starts with it too.
  if (drawn && sameRenter) hydrate(queryClient, drawn.queries as DehydratedState);
  if (!(drawn && sameRenter && drawn.wide === wide)) return run(routes);
  setServerLayout(drawn.wide);
  if (session && drawn.session) {
    // The server read the renter afresh: the stored copy catches up first, so the screen taken over
    // and the one drawn after it agree (no name flickering back to an older one).
    setSessionUser(drawn.session.user as User);
    const asDrawn = getSession();
    setDrawnSession(() => asDrawn);
  }
  return run(routes, drawn.router);
}

void start();
