import { Navigate, type RouteObject } from 'react-router';
import { AuditPage } from '../features/audit/audit-page.tsx';
import { AddCarPage } from '../features/fleet/add-car-page.tsx';
import { CarPage } from '../features/fleet/car-page.tsx';
import { CarsPage } from '../features/fleet/cars-page.tsx';
import { ImportPage } from '../features/fleet/import-page.tsx';
import { LocationsPage } from '../features/locations/locations-page.tsx';
import { InspectionPage } from '../features/inspections/inspection-page.tsx';
import { LookupPage } from '../features/lookup/lookup-page.tsx';
import { DoNotRentPage } from '../features/renters/do-not-rent-page.tsx';
import { RenterPage } from '../features/renters/renter-page.tsx';
import { ReviewQueuePage } from '../features/renters/review-queue-page.tsx';
import { DepositsPage } from '../features/money/deposits-page.tsx';
import { DisputesPage } from '../features/money/disputes-page.tsx';
import { TollsPage } from '../features/money/tolls-page.tsx';
import { SignInPage } from '../features/sign-in/sign-in-page.tsx';
import { StaffPage } from '../features/staff/staff-page.tsx';
import { TodayPage } from '../features/today/today-page.tsx';
import { TripTimelinePage } from '../features/trips/trip-timeline-page.tsx';
import { paths, routePatterns } from '../shared/paths.ts';
import { ErrorPage } from './error-page.tsx';
import { ConsoleLayout } from './layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/**
 * The console's pages: sign-in on its own, the rest inside the signed-in layout, which sends a
 * visitor without a session to sign-in. The console opens on the Today board. A location's form
 * loads lazily: the rich-text editor is in its chunk alone (decision 088).
 */
export const routes: RouteObject[] = [
  { path: paths.signIn, element: <SignInPage />, errorElement: <ErrorPage /> },
  {
    element: <ConsoleLayout />,
    errorElement: <ErrorPage />,
    children: [
      { index: true, element: <Navigate to={paths.today} replace /> },
      { path: paths.today, element: <TodayPage /> },
      { path: paths.fleet, element: <CarsPage /> },
      { path: paths.fleetNew, element: <AddCarPage /> },
      { path: paths.fleetImport, element: <ImportPage /> },
      { path: paths.fleetCar(':carId'), element: <CarPage /> },
      { path: paths.lookup, element: <LookupPage /> },
      { path: routePatterns.trip, element: <TripTimelinePage /> },
      { path: routePatterns.inspection, element: <InspectionPage /> },
      { path: paths.locations, element: <LocationsPage /> },
      {
        path: routePatterns.location,
        lazy: async () => ({
          Component: (await import('../features/locations/location-edit-page.tsx')).LocationEditPage,
        }),
      },
      { path: paths.staff, element: <StaffPage /> },
      { path: paths.audit, element: <AuditPage /> },
      { path: paths.review, element: <ReviewQueuePage /> },
      { path: paths.doNotRent, element: <DoNotRentPage /> },
      { path: routePatterns.renter, element: <RenterPage /> },
      { path: paths.disputes, element: <DisputesPage /> },
      { path: paths.deposits, element: <DepositsPage /> },
      { path: paths.tolls, element: <TollsPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
