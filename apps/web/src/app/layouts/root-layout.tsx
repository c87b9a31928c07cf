import { useEffect } from 'react';
import { Outlet, useMatches, useParams } from 'react-router';
import { DowntimePage } from '../../features/errors/routes/error-pages.tsx';
import { type RouteHandle, pageTitle } from '../route-handle.ts';
import { OneWayBanner } from './banner.tsx';
import { Footer } from './footer.tsx';
import { Navbar } from './navbar.tsx';
import classes from './shell.module.css';

const ERROR_HANDLE: RouteHandle = { title: 'Error', navbar: 'default', footer: 'default', layout: 'default' };

/** Reads the deepest route's metadata and frames the page with its navbar, banner and footer. */
export function RootLayout({ crashed = false }: { crashed?: boolean }) {
  const matches = useMatches();
  const params = useParams();
  const found = [...matches].reverse().find((m) => m.handle)?.handle as RouteHandle | undefined;
  const handle = crashed ? ERROR_HANDLE : (found ?? ERROR_HANDLE);
  useEffect(() => {
    document.title = pageTitle(handle, params);
  }, [handle, params]);
  return (
    <>
      <a href="#main" className="skip-link">Skip to content</a>
      {handle.banner && <OneWayBanner />}
      <Navbar type={handle.navbar} />
      <main id="main" className={handle.layout === 'default' ? classes.bordered : undefined}>
        {crashed ? <DowntimePage /> : <Outlet />}
      </main>
      <Footer variant={handle.footer} />
    </>
  );
}
