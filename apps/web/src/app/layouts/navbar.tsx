import { Burger, Button, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from '../../shared/router/react.tsx';
import { BASE_MODELS } from '@ampere/domain/constants';
import { toggleModel } from '@ampere/domain/filters';
import { forgetSession, revokeSession } from '../../features/auth/public/log-out.ts';
import { readSearchQuery, searchQueryRecord } from '../../shared/search-query.ts';
import { paths } from '../../shared/paths.ts';
import type { NavbarType } from '../route-handle.ts';
import { LazyConciergeModal as ConciergeModal } from './lazy-concierge-modal.tsx';
import { Logo } from './logo.tsx';
import classes from './shell.module.css';
import { useWideLayout } from '../../shared/ui/use-wide-layout.ts';
import { MenuButton, MenuItem, MenuLink } from '../../shared/ui/menu-button.tsx';
import { openedLazily } from '../../shared/ui/opened-lazily.tsx';

// The drawer's code loads when the burger first opens it.
const NavDrawer = openedLazily(() => import('./nav-drawer.tsx').then((m) => m.NavDrawer));

// The trip flow's vehicle, price and step trail: its own chunk, loaded on booking pages only. The
// trip-flow routes preload it with their page, so it paints with the page (React.lazy would hold
// its fallback for a moment even when the chunk is already there).
let bookingNavbar: ComponentType | null = null;
export const preloadBookingNavbar = () =>
  import('../../features/trips/public/booking-navbar.tsx').then((m) => (bookingNavbar = m.BookingNavbar));

function BookingBar() {
  const [Bar, setBar] = useState<ComponentType | null>(() => bookingNavbar);
  useEffect(() => {
    if (!Bar) void preloadBookingNavbar().then((c) => setBar(() => c));
  }, [Bar]);
  return Bar ? <Bar /> : null;
}

/** Default and Search navbars (spec 2); the Booking navbar is a slim variant for the trip flow. */
export function Navbar({
  type,
  signedIn = false,
  firstName = null,
}: {
  type: NavbarType;
  signedIn?: boolean;
  firstName?: string | null;
}) {
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const wide = useWideLayout();
  const [drawer, { open, close }] = useDisclosure(false);
  const [concierge, setConcierge] = useState(false);
  const onSearch = pathname === paths.search();
  const showSearchLink = type !== 'search' && !onSearch && !(pathname === paths.login() && signedIn);

  // Spec 2: logging out from the menu revokes and clears the session and goes to /search unless
  // already there. The session ends only once /search is on screen: ended while a protected page is
  // still rendered (a router navigation commits as a transition, after the session's own update),
  // that page's guard would send the renter to sign in instead.
  const [loggingOut, setLoggingOut] = useState(false);
  useEffect(() => {
    if (!loggingOut || !onSearch) return;
    setLoggingOut(false);
    void revokeSession().then(() => forgetSession(queryClient));
  }, [loggingOut, onSearch, queryClient]);
  const logOut = () => {
    close();
    setLoggingOut(true);
    if (!onSearch) void navigate(paths.search());
  };

  const chooseModel = (model: string) => {
    close();
    if (onSearch) {
      const next = new URLSearchParams(params);
      const value = toggleModel(params.get('model'), model);
      if (value) next.set('model', value);
      else next.delete('model');
      void navigate(`${paths.search()}?${next.toString()}`, { replace: true });
    } else {
      // Elsewhere (a car page carries the search it came from) the place and dates go along.
      void navigate(paths.search({ ...searchQueryRecord(readSearchQuery(params)), model }));
    }
  };

  const items = (
    <>
      {showSearchLink && (
        <Button component={Link} to={paths.search()} variant="subtle" color="dark" onClick={close}>
          Search
        </Button>
      )}
      <MenuButton variant="subtle" color="dark" rightSection={<span aria-hidden="true">▾</span>} label="Models">
        {BASE_MODELS.map((m) => (
          <MenuItem key={m} onClick={() => chooseModel(m)}>
            {m}
          </MenuItem>
        ))}
      </MenuButton>
      <Button
        variant="subtle"
        color="dark"
        onClick={() => {
          close();
          setConcierge(true);
        }}
      >
        Book by text
      </Button>
      {signedIn && !wide ? (
        // Under 768 px the account's pages are listed in the menu itself, not behind a second dropdown.
        <>
          <Text size="xs" fw={700} tt="uppercase" c="dimmed" mt="sm" className={classes.drawerLabel}>
            {firstName?.trim() || 'Account'}
          </Text>
          <Button component={Link} to={paths.profile()} variant="subtle" color="dark" onClick={close}>
            Profile
          </Button>
          <Button component={Link} to={paths.trips()} variant="subtle" color="dark" onClick={close}>
            My Trips
          </Button>
          <Button variant="subtle" color="dark" onClick={logOut}>
            Log Out
          </Button>
        </>
      ) : signedIn ? (
        <MenuButton
          variant="outline"
          rightSection={<span aria-hidden="true">▾</span>}
          label={firstName?.trim() || 'Account'}
        >
          <MenuLink to={paths.profile()} onClick={close}>
            Profile
          </MenuLink>
          <MenuLink to={paths.trips()} onClick={close}>
            My Trips
          </MenuLink>
          <MenuItem onClick={logOut}>Log Out</MenuItem>
        </MenuButton>
      ) : (
        <Button component={Link} to={paths.login()} variant="outline" onClick={close}>
          Sign In
        </Button>
      )}
    </>
  );

  return (
    <header className={classes.header}>
      <nav aria-label="Main" className={classes.nav}>
        <Logo signedIn={signedIn} />
        {type === 'booking' && <BookingBar />}
        {type !== 'booking' &&
          (wide ? (
            <Group gap="xs">{items}</Group>
          ) : (
            <>
              <Burger opened={drawer} onClick={open} aria-label="Open menu" size="sm" />
              <NavDrawer opened={drawer} onClose={close}>
                {items}
              </NavDrawer>
            </>
          ))}
      </nav>
      <ConciergeModal opened={concierge} onClose={() => setConcierge(false)} />
    </header>
  );
}
