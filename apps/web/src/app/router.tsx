import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import type { RouteHandle } from './route-handle.ts';
import { RootLayout } from './layouts/root-layout.tsx';
import { paths } from './paths.ts';

const h = (handle: RouteHandle) => handle;
const placeholder = (title: string) => () => import('../features/home/routes/placeholder.tsx').then((m) => ({ Component: () => m.Placeholder({ title }) }));

const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RootLayout crashed />,
    children: [
      // An anonymous visit to / goes to /search (sign-in arrives with the account issue).
      { path: '/', loader: () => redirect(paths.search()) },
      { path: '/search', lazy: () => import('../features/search/routes/search-page.tsx').then((m) => ({ Component: m.SearchPage })), handle: h({ title: 'Search', navbar: 'search', footer: 'search', layout: 'full', banner: true }) },
      { path: '/vehicle/:vin', lazy: () => import('../features/vehicle/routes/vehicle-page.tsx').then((m) => ({ Component: m.VehiclePage })), handle: h({ title: 'Vehicle', navbar: 'default', footer: 'default', layout: 'full', banner: true }) },
      { path: '/login', lazy: placeholder('Sign In'), handle: h({ title: 'Login', navbar: 'default', footer: 'application', layout: 'default' }) },
      { path: '/forbidden', lazy: () => import('../features/errors/routes/error-pages.tsx').then((m) => ({ Component: m.ForbiddenPage })), handle: h({ title: 'Forbidden', navbar: 'default', footer: 'default', layout: 'default' }) },
      { path: '/error', lazy: () => import('../features/errors/routes/error-pages.tsx').then((m) => ({ Component: m.DowntimePage })), handle: h({ title: 'Error', navbar: 'default', footer: 'default', layout: 'default' }) },
      { path: '*', lazy: () => import('../features/errors/routes/error-pages.tsx').then((m) => ({ Component: m.NotFoundPage })), handle: h({ title: 'Page Not Found', navbar: 'default', footer: 'default', layout: 'default' }) },
    ],
  },
];

export const router = createBrowserRouter(routes);
