import { useEffect } from 'react';
import { Outlet, useMatches, useParams } from 'react-router';
import { DowntimePage } from '../../features/errors/routes/error-pages.tsx';
import { type RouteHandle, pageTitle } from '../route-handle.ts';

/** Reads the deepest route's metadata and frames the page with its navbar and footer. */
export function RootLayout({ crashed = false }: { crashed?: boolean }) {
  const matches = useMatches();
  const params = useParams();
  const handle = [...matches].reverse().find((m) => m.handle)?.handle as RouteHandle | undefined;
  useEffect(() => {
    document.title = pageTitle(crashed ? { title: 'Error', navbar: 'default', footer: 'default', layout: 'default' } : handle, params);
  }, [handle, params, crashed]);
  return (
    <>
      <header>{/* navbar: see app/layouts */}</header>
      <main id="main">{crashed ? <DowntimePage /> : <Outlet />}</main>
      <footer />
    </>
  );
}
