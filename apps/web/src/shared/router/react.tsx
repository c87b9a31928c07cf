import {
  type AnchorHTMLAttributes,
  Component,
  type MouseEvent,
  type ReactNode,
  type Ref,
  createContext,
  startTransition,
  use,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react';
import {
  type Loader,
  type LoaderData,
  type Location,
  type NavigateOptions,
  type Params,
  type PathParams,
  type Router,
  type RouterState,
  hrefOf,
  paramNamesOf,
  resolvePath,
} from './core.ts';

const RouterContext = createContext<{ router: Router; state: RouterState } | null>(null);
/** The depth of the match the component under it belongs to. */
const DepthContext = createContext(-1);

function useRouter() {
  const found = use(RouterContext);
  if (!found) throw new Error('This component needs the router around it (RouterProvider).');
  return found;
}

/** Shows `fallback` for an error thrown while drawing what is under it, until the address changes. */
class ErrorBoundary extends Component<
  { fallback: ReactNode; location: Location; children: ReactNode },
  { error: unknown; location: Location }
> {
  override state = { error: null as unknown, location: this.props.location };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(
    props: { location: Location },
    state: { location: Location },
  ): { error: null; location: Location } | null {
    return props.location === state.location ? null : { error: null, location: props.location };
  }
  override componentDidCatch(error: unknown) {
    console.error(error);
  }
  override render() {
    return this.state.error ? this.props.fallback : this.props.children;
  }
}

/** The matched route at `depth`: its page, inside its error element's boundary if it has one. */
function Level({ depth }: { depth: number }) {
  const { state } = useRouter();
  const match = state.matches[depth];
  if (!match) return null;
  const { route } = match;
  const failed =
    state.error !== null && !state.matches.slice(depth + 1).some((m) => m.route.errorElement !== undefined);
  const content =
    route.errorElement !== undefined && failed
      ? route.errorElement
      : (route.element ?? (route.Component ? <route.Component /> : <Outlet />));
  return (
    <DepthContext value={depth}>
      {route.errorElement !== undefined ? (
        <ErrorBoundary fallback={route.errorElement} location={state.location}>
          {content}
        </ErrorBoundary>
      ) : (
        content
      )}
    </DepthContext>
  );
}

/** Where a layout route shows the route matched under it. */
export function Outlet() {
  return <Level depth={use(DepthContext) + 1} />;
}

/**
 * Draws the router's current page, and each new one once it is ready. A new page lands as a
 * transition: React draws it in slices and keeps the renter's input first.
 */
export function RouterProvider({ router }: { router: Router }) {
  const [state, setState] = useState(router.state);
  useLayoutEffect(() => {
    const stop = router.subscribe((next) => startTransition(() => setState(next)));
    // Anything that happened between the first draw and now.
    if (router.state !== state) setState(router.state);
    return stop;
    // Subscribed once per router; `state` is only read to catch up.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [router]);
  const value = useMemo(() => ({ router, state }), [router, state]);
  return (
    <RouterContext value={value}>
      <Level depth={0} />
    </RouterContext>
  );
}

export const useInRouterContext = () => use(RouterContext) !== null;
export const useLocation = (): Location => useRouter().state.location;
export const useNavigationType = () => useRouter().state.action;
export const useNavigation = () => useRouter().state.navigation;
export const useNavigate = () => useRouter().router.navigate;
const NO_PARAMS: Params = {};

/**
 * The address's parameters, the same object for as long as the page is shown. Given the page's
 * pattern (`useParams(patterns.trip.pay)`; a part shown on several pages, one they all extend, such as
 * `patterns.trip.detail`), they are typed by its names (`{ id: string }`), and a page shown at an
 * address without them fails loudly rather than reading nothing. Without one, any may be absent.
 */
export function useParams(): Params;
export function useParams<P extends string>(pattern: P): PathParams<P>;
export function useParams(pattern?: string): Params {
  const params = useRouter().state.matches.at(-1)?.params ?? NO_PARAMS;
  for (const name of pattern === undefined ? [] : paramNamesOf(pattern))
    if (name !== '*' && params[name] === undefined)
      throw new Error(`This page reads :${name} of ${pattern}, but the address it is shown at has none.`);
  return params;
}

/** The matched routes, outermost first, with their metadata. */
export function useMatches() {
  const { state } = useRouter();
  return useMemo(
    () =>
      state.matches.map((m) => ({ id: m.id, params: m.params, handle: m.route.handle, data: state.loaderData[m.id] })),
    [state.matches, state.loaderData],
  );
}

/**
 * What the loader of the route this component belongs to answered, typed by that loader:
 * `useLoaderData<typeof searchLoader>()`. The router keeps each route's answer beside the route
 * that gave it, so this is the one place its type is restored.
 */
export function useLoaderData<L extends Loader>(): LoaderData<L> {
  const { state } = useRouter();
  const match = state.matches[use(DepthContext)];
  return (match ? (state.loaderData[match.id] ?? null) : null) as LoaderData<L>;
}

/** The query string, and a way to replace it (the page's path stays). */
export function useSearchParams(): [URLSearchParams, (next: URLSearchParams, options?: NavigateOptions) => void] {
  const { router, state } = useRouter();
  const { search } = state.location;
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useMemo(
    () => (next: URLSearchParams, options?: NavigateOptions) => void router.navigate(`?${next.toString()}`, options),
    [router],
  );
  return [params, set];
}

/** Goes to `to` once drawn. */
export function Navigate({ to, replace, state }: { to: string } & NavigateOptions) {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(to, { replace, state });
  }, [navigate, to, replace, state]);
  return null;
}

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
  ref?: Ref<HTMLAnchorElement>;
} & NavigateOptions;

/**
 * A link the app follows itself, without reloading the page. A click with a modifier key, or on a
 * link opening elsewhere, is the browser's. A link to where the renter already is replaces the
 * history entry rather than adding a second copy of it.
 */
export function Link({ to, replace, state, onClick, target, children, ...rest }: LinkProps) {
  const { router, state: current } = useRouter();
  const path = hrefOf(resolvePath(to, current.location));
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || (target && target !== '_self')) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    void router.navigate(path, { replace: replace ?? path === hrefOf(current.location), state });
  };
  return (
    <a {...rest} href={path} target={target} onClick={follow}>
      {children}
    </a>
  );
}
