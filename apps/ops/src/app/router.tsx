import type { RouteObject } from 'react-router';
import { AuditPage } from '../features/audit/audit-page.tsx';
import { AddCarPage } from '../features/fleet/add-car-page.tsx';
import { CarPage } from '../features/fleet/car-page.tsx';
import { CarsPage } from '../features/fleet/cars-page.tsx';
import { ImportPage } from '../features/fleet/import-page.tsx';
import { PlaceholderPage } from '../features/placeholder-page.tsx';
import { SignInPage } from '../features/sign-in/sign-in-page.tsx';
import { StaffPage } from '../features/staff/staff-page.tsx';
import { paths } from '../shared/paths.ts';
import { ErrorPage } from './error-page.tsx';
import { ConsoleLayout } from './layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/**
 * The console's pages: sign-in on its own, the rest inside the signed-in layout, which sends a
 * visitor without a session to sign-in. Pages of later issues say what they will hold.
 */
export const routes: RouteObject[] = [
  { path: paths.signIn, element: <SignInPage />, errorElement: <ErrorPage /> },
  {
    element: <ConsoleLayout />,
    errorElement: <ErrorPage />,
    children: [
      {
        index: true,
        element: <PlaceholderPage title="Today" what="the day’s pickups, returns and cars to charge, per location" />,
      },
      { path: paths.fleet, element: <CarsPage /> },
      { path: paths.fleetNew, element: <AddCarPage /> },
      { path: paths.fleetImport, element: <ImportPage /> },
      { path: paths.fleetCar(':carId'), element: <CarPage /> },
      {
        path: paths.lookup,
        element: (
          <PlaceholderPage
            title="Lookup"
            what="finding a trip by its id, the renter’s phone, name or email, or a VIN"
          />
        ),
      },
      {
        path: paths.locations,
        element: <PlaceholderPage title="Locations" what="each lot’s address, time zone and instructions" />,
      },
      { path: paths.staff, element: <StaffPage /> },
      { path: paths.audit, element: <AuditPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
