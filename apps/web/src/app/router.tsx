import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from '../shared/router/core.ts';
import { reservationListsQueryOptions, reservationQueryOptions } from '../features/trips/public/get-reservation.ts';
import { vehicleModelsQueryOptions } from '../features/home/public/get-vehicle-models.ts';
import { vehicleQueryOptions } from '../features/vehicles/public/vehicle-api.ts';
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
  const tripChild = (
    path: string,
    title: string,
    lazy: RouteObject['lazy'],
    more: Partial<RouteHandle> = {},
    prefetch?: Prefetch,
  ) =>
    protect(
      { ...(path ? { path } : { index: true }), lazy, handle: page(title, { layout: 'default', ...more }) },
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
            path: '/',
            lazy: () => import('../features/home/routes/home-page.tsx').then((m) => ({ Component: m.HomePage })),
            handle: page('Home'),
          },
          homePrefetch,
        ),
        {
          path: '/search',
          lazy: () =>
            import('../features/search/routes/search-page.tsx').then((m) => ({
              Component: m.SearchPage,
              loader: m.searchLoader,
            })),
          handle: h({ title: 'Search', navbar: 'search', footer: 'search', layout: 'full', banner: true }),
        },
        {
          path: '/vehicle/:vin',
          loader: (args: LoaderFunctionArgs) => (vehiclePrefetch(args), null),
          lazy: () =>
            import('../features/vehicles/routes/vehicle-page.tsx').then((m) => ({ Component: m.VehiclePage })),
          handle: h({ title: 'Vehicle', navbar: 'default', footer: 'default', layout: 'full', banner: true }),
        },
        {
          path: '/login',
          loader: anonymousOnly,
          lazy: () => import('../features/auth/routes/login-page.tsx').then((m) => ({ Component: m.LoginPage })),
          handle: h({ title: 'Login', navbar: 'default', footer: 'application', layout: 'default' }),
        },
        {
          path: '/logout',
          lazy: () => import('../features/auth/routes/logout-page.tsx').then((m) => ({ Component: m.LogoutPage })),
          handle: h({ title: 'Log Out', navbar: 'default', footer: 'application', layout: 'default' }),
        },
        protect({
          path: '/profile',
          lazy: () => import('../features/users/routes/profile-page.tsx').then((m) => ({ Component: m.ProfilePage })),
          handle: page('Profile'),
        }),
        protect(
          {
            path: '/trips',
            lazy: () => import('../features/trips/routes/trips-page.tsx').then((m) => ({ Component: m.TripsPage })),
            handle: page('My Trips'),
          },
          tripsPrefetch,
        ),
        protect({
          path: '/create-booking',
          lazy: () =>
            import('../features/trips/routes/create-booking-page.tsx').then((m) => ({
              Component: m.CreateBookingPage,
            })),
          handle: page('Create Booking', { layout: 'default' }),
        }),
        {
          path: '/onboarding',
          children: [
            protect({
              index: true,
              lazy: onboarding('OnboardingPage'),
              handle: page('Get Started', { layout: 'default' }),
            }),
            protect({
              path: 'insurance/verification',
              lazy: onboarding('InsuranceOnboardingPage'),
              handle: page('Insurance Verification', { layout: 'default' }),
            }),
            protect({
              path: 'license/verification',
              lazy: onboarding('LicenseOnboardingPage'),
              handle: page('License Verification', { layout: 'default' }),
            }),
          ],
        },
        {
          path: '/trip/:id',
          children: [
            tripChild(
              '',
              'My Trip',
              () => import('../features/trips/routes/trip-page.tsx').then((m) => ({ Component: m.TripPage })),
              {},
              tripPrefetch,
            ),
            tripChild(
              'damage-waiver',
              'Add Collision Protection?',
              () =>
                withBookingNavbar(import('../features/trips/routes/damage-waiver-page.tsx')).then((m) => ({
                  Component: m.DamageWaiverPage,
                })),
              { navbar: 'booking' },
            ),
            tripChild(
              'signature',
              'Your Signature',
              () =>
                withBookingNavbar(import('../features/trips/routes/signature-page.tsx')).then((m) => ({
                  Component: m.SignaturePage,
                })),
              { navbar: 'booking' },
            ),
            tripChild(
              'pay',
              'Review & Pay',
              () =>
                withBookingNavbar(import('../features/trips/routes/pay-page.tsx')).then((m) => ({
                  Component: m.PayPage,
                })),
              { navbar: 'booking', layout: 'full' },
            ),
            tripChild('confirmation', 'Confirmation', () =>
              import('../features/trips/routes/confirmation-page.tsx').then((m) => ({
                Component: m.ConfirmationPage,
              })),
            ),
            tripChild('receipt', 'Your Receipts', () =>
              import('../features/receipts/routes/receipt-page.tsx').then((m) => ({ Component: m.ReceiptPage })),
            ),
            tripChild('extension', 'Change Dates', () =>
              import('../features/trips/routes/extension-pages.tsx').then((m) => ({ Component: m.ExtensionPage })),
            ),
            tripChild('extension/confirmed', 'Extension Confirmed', () =>
              import('../features/trips/routes/extension-pages.tsx').then((m) => ({
                Component: m.ExtensionConfirmedPage,
              })),
            ),
            tripChild('return', 'Return', () =>
              import('../features/trips/routes/return-page.tsx').then((m) => ({ Component: m.ReturnPage })),
            ),
          ],
        },
        {
          path: '/receipt',
          lazy: () =>
            import('../features/receipts/routes/shared-receipt-page.tsx').then((m) => ({
              Component: m.SharedReceiptPage,
            })),
          handle: h({ title: 'Your Receipts', navbar: 'default', footer: 'default', layout: 'default' }),
        },
        {
          path: '/policies',
          lazy: () => import('../features/trips/routes/legal-pages.tsx').then((m) => ({ Component: m.PoliciesPage })),
          handle: h({ title: 'Policies', navbar: 'default', footer: 'default', layout: 'default' }),
        },
        {
          path: '/key/:token',
          lazy: () => import('../features/keys/routes/key-page.tsx').then((m) => ({ Component: m.KeyPage })),
          handle: h({ title: 'Digital Key', navbar: 'default', footer: 'default', layout: 'full' }),
        },
        {
          path: '/waiver-contract',
          lazy: () =>
            import('../features/trips/routes/legal-pages.tsx').then((m) => ({ Component: m.WaiverContractPage })),
          handle: h({ title: 'Collision Protection Waiver', navbar: 'default', footer: 'default', layout: 'default' }),
        },
        {
          path: '/rental-agreement',
          lazy: () =>
            import('../features/trips/routes/legal-pages.tsx').then((m) => ({ Component: m.RentalAgreementPage })),
          handle: h({ title: 'Rental Agreement', navbar: 'default', footer: 'default', layout: 'default' }),
        },
        {
          path: '/forbidden',
          lazy: () => import('../shared/errors/error-pages.tsx').then((m) => ({ Component: m.ForbiddenPage })),
          handle: h({ title: 'Forbidden', navbar: 'default', footer: 'default', layout: 'default' }),
        },
        {
          path: '/error',
          lazy: () => import('../shared/errors/error-pages.tsx').then((m) => ({ Component: m.DowntimePage })),
          handle: h({ title: 'Error', navbar: 'default', footer: 'default', layout: 'default' }),
        },
        {
          path: '*',
          lazy: () => import('../shared/errors/error-pages.tsx').then((m) => ({ Component: m.NotFoundPage })),
          handle: h({ title: 'Page Not Found', navbar: 'default', footer: 'default', layout: 'default' }),
        },
      ],
    },
  ];
}
