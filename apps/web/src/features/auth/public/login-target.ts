import { paths } from '../../../shared/paths.ts';

/**
 * Where sign-in leads (spec 2): `redirect=create-booking` resumes the booking with the rest of the
 * query; a `redirect` path goes to that path with its query (and any other query left on /login);
 * otherwise home. Only paths on this site are followed, never another origin.
 */
export function loginTarget(params: URLSearchParams): string {
  const redirect = params.get('redirect');
  const rest = new URLSearchParams(params);
  rest.delete('redirect');
  if (redirect === 'create-booking') return paths.createBooking(Object.fromEntries(rest));
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\'))
    return paths.home();
  const url = new URL(redirect, 'http://ampere.invalid');
  if (url.origin !== 'http://ampere.invalid' || url.pathname === paths.login() || url.pathname === paths.logout())
    return paths.home();
  for (const [k, v] of rest) if (!url.searchParams.has(k)) url.searchParams.set(k, v);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in link that returns to `location` (path and query) afterwards. */
export function loginFor(location: { pathname: string; search: string }): string {
  return paths.login(`${location.pathname}${location.search}`);
}
