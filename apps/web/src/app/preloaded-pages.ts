/**
 * The pages whose code the server names in the HTML it sends for them (`modulepreload`), so the
 * page's chunk downloads beside the framework instead of after the framework has run and the router
 * has matched the path. The build turns each module into its files (`page-preloads.json`, written
 * by vite.config.ts); `preloaded-pages.test.ts` checks that the router loads the same module for a
 * path the pattern matches. Plain data: the build's config imports it.
 */
export interface PreloadedPage {
  /** A regular expression over the request's path. */
  pattern: string;
  /** The module the router's route for that path loads, relative to apps/web. */
  module: string;
  /** A path the pattern matches, for the test. */
  example: string;
}

export const PRELOADED_PAGES: readonly PreloadedPage[] = [
  { pattern: '^/$', module: 'src/features/home/routes/home-page.tsx', example: '/' },
  { pattern: '^/search/?$', module: 'src/features/search/routes/search-page.tsx', example: '/search' },
  {
    pattern: '^/vehicle/[^/]+/?$',
    module: 'src/features/vehicles/routes/vehicle-page.tsx',
    example: '/vehicle/5YJ3E1EA7NF000001',
  },
  { pattern: '^/login/?$', module: 'src/features/auth/routes/login-page.tsx', example: '/login' },
  { pattern: '^/profile/?$', module: 'src/features/users/routes/profile-page.tsx', example: '/profile' },
  { pattern: '^/trips/?$', module: 'src/features/trips/routes/trips-page.tsx', example: '/trips' },
  { pattern: '^/trip/[^/]+/?$', module: 'src/features/trips/routes/trip-page.tsx', example: '/trip/R-1234' },
  {
    pattern: '^/trip/[^/]+/receipt/?$',
    module: 'src/features/receipts/routes/receipt-page.tsx',
    example: '/trip/R-1234/receipt',
  },
];
