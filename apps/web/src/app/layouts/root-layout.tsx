import { type ReactNode, useEffect, useLayoutEffect, useMemo } from 'react';
import { Navigate, Outlet, useLocation, useMatches, useNavigationType, useParams } from '../../shared/router/react.tsx';
import { DowntimePage } from '../../shared/errors/error-pages.tsx';
import { loginFor } from '../../features/auth/public/login-target.ts';
import { useUser } from '../../shared/auth/get-user.ts';
import { useSession } from '../../shared/auth/use-session.ts';
import { useFlagTheme } from '../../shared/flags/flag-theme.ts';
import { usePageTitleOverride } from '../../shared/page-title.ts';
import { paths } from '../../shared/paths.ts';
import { useInBrowser } from '../../shared/ui/use-in-browser.ts';
import { TakenOverLater } from '../../shared/ui/taken-over-later.tsx';
import { type RouteHandle, pageTitle } from '../route-handle.ts';
import { OneWayBanner } from './banner.tsx';
import { Footer } from './footer.tsx';
import { Navbar } from './navbar.tsx';
import classes from './shell.module.css';

const ERROR_HANDLE: RouteHandle = { title: 'Error', navbar: 'default', footer: 'default', layout: 'default' };

/**
 * Keeps the stored renter in step with the server and the flag colours applied. It renders
 * nothing, so when those reads answer (on every load) only it redraws, not the whole frame.
 */
function SessionUpkeep({ token }: { token: string | null }) {
  useUser(token);
  useFlagTheme();
  return null;
}

/**
 * The page and its frame. A screen the server drew shows before the app runs (decision 046); until
 * the app has taken it over, its buttons and fields are off, so a tap cannot send a form the app has
 * not seen (links still work). Only this redraws when that changes, not what is inside it.
 */
function Screen({ children }: { children: ReactNode }) {
  const running = useInBrowser();
  return (
    <fieldset disabled={!running} role="none" className={classes.screen}>
      {children}
    </fieldset>
  );
}

/** Reads the deepest route's metadata and frames the page with its navbar, banner and footer. */
export function RootLayout({ crashed = false }: { crashed?: boolean }) {
  const matches = useMatches();
  const params = useParams();
  const location = useLocation();
  const session = useSession();
  const found = [...matches].reverse().find((m) => m.handle)?.handle as RouteHandle | undefined;
  const handle = crashed ? ERROR_HANDLE : (found ?? ERROR_HANDLE);
  const ownTitle = usePageTitleOverride();
  useEffect(() => {
    document.title = pageTitle(handle, params, ownTitle);
  }, [handle, params, ownTitle]);
  // A new page opens at its top, as a page loaded afresh does: paying at the foot of a phone's screen
  // no longer opens the trip scrolled past 'Your rental is booked!'. Only the path counts, so a page
  // rewriting its own query string (search's filters, a car's dates) stays put; Back (POP) is left to
  // the browser.
  const navigation = useNavigationType();
  useLayoutEffect(() => {
    if (navigation !== 'POP') window.scrollTo(0, 0);
  }, [location.pathname, navigation]);
  // The footer, taken over later, keeps its element from render to render: a new element given to a
  // part not yet taken over would make React take it over at once, in the task of that render.
  const page = crashed ? <DowntimePage /> : <Outlet />;
  const footer = useMemo(() => <Footer variant={handle.footer} />, [handle.footer]);
  // A session that ends while a protected page is open (logout elsewhere, a 401, expiry) sends the
  // renter to sign in, as the route guard does on the way in.
  if (handle.authenticated && !session) {
    return <Navigate to={location.pathname === paths.home() ? paths.search() : loginFor(location)} replace />;
  }
  return (
    <Screen>
      <SessionUpkeep token={session?.token ?? null} />
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      {handle.banner && <OneWayBanner />}
      <Navbar type={handle.navbar} signedIn={!!session} firstName={session?.user?.first_name ?? null} />
      {/* At least a screen tall, so the footer starts below the fold and never jumps down as the page's content arrives. */}
      <div className={classes.page}>
        <main id="main" className={handle.layout === 'default' ? classes.bordered : undefined}>
          {/* The page is taken over with the navbar (a page splits itself where it pays), the footer
              after them (decision 066). */}
          {page}
        </main>
      </div>
      <TakenOverLater>{footer}</TakenOverLater>
    </Screen>
  );
}
