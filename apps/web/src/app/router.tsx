import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from '../shared/router/core.ts';
import { reservationListsQueryOptions, reservationQueryOptions } from '../features/trips/public/get-reservation.ts';
import { vehicleModelsQueryOptions } from '../features/home/public/get-vehicle-models.ts';
import { vehicleQueryOptions } from '../features/vehicles/public/vehicle-api.ts';
import { patterns } from '../shared/paths.ts';
import type { RouteHandle } from './route-handle.ts';
import { anonymousOnly, requireSession } from './guards.ts';
import { preloadBookingNavbar } from './layouts/navbar.tsx';
import { RootLayout } from './layouts/root-layout.tsx';

const h = (handle: RouteHandle) => handle;
const page = (title: string, more: Partial<RouteHandle> = {}): RouteHandle => ({
  title,
  navbar: 'default',
  footer: 'default',
  layout: 'full',
  ...more,
});
const onboarding = (name: 'OnboardingPage' | 'LicenseOnboardingPage' | 'InsuranceOnboardingPage') => () =>
  import('../features/onboarding/routes/onboarding-pages.tsx').then((m) => ({ Component: m[name] }));
/**
 * The app's routes. The query cache is the caller's: the browser's one cache, or, when the server
 * draws a page's first screen, one made for that request (app/entry-server.tsx), so a page's read
 * started by its route lands where that render looks for it.
 */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  /**
   * Starts a page's main read while its code downloads rather than after: the page's own query then
   * finds it under way (or done). Errors are the page's to show, so none is thrown here.
   */
  type Prefetch = (args: LoaderFunctionArgs) => void;
  const vehiclePrefetch: Prefetch = ({ params }) =>
    void queryClient.prefetchQuery(vehicleQueryOptions(params.vin ?? ''));
  const tripPrefetch: Prefetch = ({ params }) =>
    void queryClient.prefetchQuery(reservationQueryOptions(params.id ?? ''));
  const tripsPrefetch: Prefetch = () => void queryClient.prefetchQuery(reservationListsQueryOptions());
  const homePrefetch: Prefetch = (args) => {
    tripsPrefetch(args);
    void queryClient.prefetchQuery(vehicleModelsQueryOptions());
  };
  /** A page that requires login (spec 2 route table): checked before it loads and while it is open; signed in, its read may start at once. */
  const protect = (route: RouteObject & { handle: RouteHandle }, prefetch?: Prefetch): RouteObject => ({
    ...route,
    loader: (args: LoaderFunctionArgs) => {
      const denied = requireSession(args);
      prefetch?.(args);
      return denied;
    },
    handle: { ...route.handle, authenticated: true },
  });

  // The trip flow's pages bring the Booking navbar's chunk with them, so both paint together.
  const withBookingNavbar = <T,>(page: Promise<T>) => Promise.all([page, preloadBookingNavbar()]).then(([m]) => m);
  /** A page of the trip (`path` one of `patterns.trip`), or, with none, the trip page itself. */
  const tripChild = (
    path: string | null,
    title: string,
    lazy: RouteObject['lazy'],
    more: Partial<RouteHandle> = {},
    prefetch?: Prefetch,
  ) =>
    protect(
      { ...(path === null ? { index: true } : { path }), lazy, handle: page(title, { layout: 'default', ...more }) },
      prefetch,
    );

  return [
    {
      element: <RootLayout />,
      errorElement: <RootLayout crashed />,
      children: [
        // An anonymous visit to / goes to /search; a signed-in one sees home.
        protect(
          {
            path: patterns.home,
            lazy: () => import('../features/home/routes/home-page.tsx').then((m) => ({ Component: m.HomePage })),
            handle: page('Home'),
          },
          homePrefetch,
        ),
        {
          path: patterns.search,
          lazy: () =>
            import('../features/search/routes/search-page.tsx').then((m) => ({
              Component: m.SearchPage,
              loader: m.searchLoader,
            })),
          handle: h({ title: 'Search', navbar: 'search', footer: 'search', layout: 'full', banner: true }),
        },
        {
          path: patterns.vehicle,
          loader: (args: LoaderFunctionArgs) => (vehiclePrefetch(args), null),
          lazy: () =>
            import('../features/vehicles/routes/vehicle-page.tsx').then((m) => ({ Component: m.VehiclePage })),
          handle: h({ title: 'Vehicle', navbar: 'default', footer: 'default', layout: 'full', banner: true }),
        },
        {
          path: patterns.login,
          loader: anonymousOnly,
          lazy: () => import('../features/auth/routes/login-page.tsx').then((m) => ({ Component: m.LoginPage })),
          handle: h({ title: 'Login', navbar: 'default', footer: 'application', layout: 'default' }),
        },
        {
          path: patterns.logout,
          lazy: () => import('../features/auth/routes/logout-page.tsx').then((m) => ({ Component: m.LogoutPage })),
          handle: h({ title: 'Log Out', navbar: 'default', footer: 'application', layout: 'default' }),
        },
        protect({
          path: patterns.profile,
          lazy: () => import('../features/users/routes/profile-page.tsx').then((m) => ({ Component: m.ProfilePage })),
          handle: page('Profile'),
        }),
        protect(
          {
            path: patterns.trips,
            lazy: () => import('../features/trips/routes/trips-page.tsx').then((m) => ({ Component: m.TripsPage })),
            handle: page('My Trips'),
          },
          tripsPrefetch,
        ),
        protect({
          path: patterns.createBooking,
          lazy: () =>
            import('../features/trips/routes/create-booking-page.tsx').then((m) => ({
              Component: m.CreateBookingPage,
            })),
          handle: page('Create Booking', { layout: 'default' }),
        }),
        {
          path: patterns.onboarding.start,
          children: [
            protect({
              index: true,
              lazy: onboarding('OnboardingPage'),
              handle: page('Get Started', { layout: 'default' }),
            }),
            protect({
              path: patterns.onboarding.insurance,
              lazy: onboarding('InsuranceOnboardingPage'),
              handle: page('Insurance Verification', { layout: 'default' }),
            }),
            protect({
              path: patterns.onboarding.license,
              lazy: onboarding('LicenseOnboardingPage'),
              handle: page('License Verification', { layout: 'default' }),
            }),
          ],
        },
        {
          path: patterns.trip.detail,
          children: [
            tripChild(
              null,
              'My Trip',
              () => import('../features/trips/routes/trip-page.tsx').then((m) => ({ Component: m.TripPage })),
              {},
              tripPrefetch,
            ),
            tripChild(
              patterns.trip.damageWaiver,
              'Add Collision Protection?',
              () =>
                withBookingNavbar(import('../features/trips/routes/damage-waiver-page.tsx')).then((m) => ({
                  Component: m.DamageWaiverPage,
                })),
              { navbar: 'booking' },
            ),
            tripChild(
              patterns.trip.signature,
              'Your Signature',
              () =>
                withBookingNavbar(import('../features/trips/routes/signature-page.tsx')).then((m) => ({
                  Component: m.SignaturePage,
                })),
              { navbar: 'booking' },
            ),
            tripChild(
              patterns.trip.pay,
              'Review & Pay',
              () =>
                withBookingNavbar(import('../features/trips/routes/pay-page.tsx')).then((m) => ({
                  Component: m.PayPage,
                })),
              { navbar: 'booking', layout: 'full' },
            ),
            tripChild(patterns.trip.confirmation, 'Confirmation', () =>
              import('../features/trips/routes/confirmation-page.tsx').then((m) => ({
                Component: m.ConfirmationPage,
              })),
            ),
            tripChild(patterns.trip.receipt, 'Your Receipts', () =>
              import('../features/receipts/routes/receipt-page.tsx').then((m) => ({ Component: m.ReceiptPage })),
            ),
            tripChild(patterns.trip.extension, 'Change Dates', () =>
              import('../features/trips/routes/extension-pages.tsx').then((m) => ({ Component: m.ExtensionPage })),
            ),
            tripChild(patterns.trip.extensionConfirmed, 'Extension Confirmed', () =>
              import('../features/trips/routes/extension-pages.tsx').then((m) => ({
                Component: m.ExtensionConfirmedPage,
              })),
            ),
            tripChild(patterns.trip.return, 'Return', () =>
              import('../features/trips/routes/return-page.tsx').then((m) => ({ Component: m.ReturnPage })),
            ),
            tripChild(patterns.trip.charge, 'Charge', () =>
              import('../features/charges/routes/charge-page.tsx').then((m) => ({ Component: m.ChargePage })),
            ),
          ],
        },
        {
          path: patterns.sharedReceipt,
          lazy: () =>
            import('../features/receipts/routes/shared-receipt-page.tsx').then((m) => ({
              Component: m.SharedReceiptPage,
            })),
          handle: h({ title: 'Your Receipts', navbar: 'default', footer: 'default', layout: 'default' }),
        },
        {
          path: patterns.policies,
          lazy: () => import('../features/trips/routes/legal-pages.tsx').then((m) => ({ Component: m.PoliciesPage })),
          handle: h({ title: 'Policies', navbar: 'default', footer: 'default', layout: 'default' }),
        },
        {
          path: patterns.key,
          lazy: () => import('../features/keys/routes/key-page.tsx').then((m) => ({ Component: m.KeyPage })),
          handle: h({ title: 'Digital Key', navbar: 'default', footer: 'default', layout: 'full' }),
        },
        {
          path: patterns.waiverContract,
          lazy: () =>
            import('../features/trips/routes/legal-pages.tsx').then((m) => ({ Component: m.WaiverContractPage })),
          handle: h({ title: 'Collision Protection Waiver', navbar: 'default', footer: 'default', layout: 'default' }),
        },
        {
          path: patterns.rentalAgreement,
          lazy: () =>
            import('../features/trips/routes/legal-pages.tsx').then((m) => ({ Component: m.RentalAgreementPage })),
          handle: h({ title: 'Rental Agreement', navbar: 'default', footer: 'default', layout: 'default' }),
        },
        {
          path: patterns.forbidden,
          lazy: () => import('../shared/errors/error-pages.tsx').then((m) => ({ Component: m.ForbiddenPage })),
          handle: h({ title: 'Forbidden', navbar: 'default', footer: 'default', layout: 'default' }),
        },
        {
          path: patterns.error,
          lazy: () => import('../shared/errors/error-pages.tsx').then((m) => ({ Component: m.DowntimePage })),
          handle: h({ title: 'Error', navbar: 'default', footer: 'default', layout: 'default' }),
        },
        {
          path: patterns.notFound,
          lazy: () => import('../shared/errors/error-pages.tsx').then((m) => ({ Component: m.NotFoundPage })),
          handle: h({ title: 'Page Not Found', navbar: 'default', footer: 'default', layout: 'default' }),
        },
      ],
    },
  ];
}
