import { type LoaderFunctionArgs, redirect } from '../shared/router/core.ts';
import { loginFor, loginTarget } from '../features/auth/public/login-target.ts';
import { getSession } from '../shared/auth/session-store.ts';
import { paths } from '../shared/paths.ts';

/**
 * Route guards, run before a page loads (RootLayout repeats the check while a page is open, for a
 * session that ends under it). Spec 2: a protected route without login goes to
 * /login?redirect={full path}; an anonymous visit to / goes to /search; /login is for anonymous visitors.
 */
export function requireSession({ request }: LoaderFunctionArgs) {
  if (getSession()) return null;
  const url = new URL(request.url);
  throw redirect(url.pathname === paths.home() ? paths.search() : loginFor(url));
}

export function anonymousOnly({ request }: LoaderFunctionArgs) {
  if (getSession()) throw redirect(loginTarget(new URL(request.url).searchParams));
  return null;
}
