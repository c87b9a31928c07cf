import { AppShell, Burger, Button, Center, Group, Loader, NavLink, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, NavLink as RouterLink, Outlet, useLocation, useNavigate } from 'react-router';
import { STAFF_ROLE_LABELS, type StaffAction } from '@ampere/domain/staff';
import { ApiError, SESSION_ENDED_EVENT, api } from '../shared/api.ts';
import { meQuery } from '../shared/me.ts';
import { paths } from '../shared/paths.ts';

/** The console's sections, each shown only to a role that may do what it is for. */
const SECTIONS: { label: string; to: string; action: StaffAction }[] = [
  { label: 'Today', to: paths.today, action: 'today.read' },
  { label: 'Fleet', to: paths.fleet, action: 'fleet.read' },
  { label: 'Lookup', to: paths.lookup, action: 'trips.read' },
  { label: 'Review', to: paths.review, action: 'verifications.review' },
  { label: 'Do not rent', to: paths.doNotRent, action: 'trips.read' },
  { label: 'Disputes', to: paths.disputes, action: 'disputes.decide' },
  { label: 'Deposits', to: paths.deposits, action: 'deposits.release' },
  { label: 'Tolls and tickets', to: paths.tolls, action: 'charges.post' },
  { label: 'Locations', to: paths.locations, action: 'locations.edit' },
  { label: 'Staff', to: paths.staff, action: 'staff.read' },
  { label: 'Audit log', to: paths.audit, action: 'audit.read' },
];

/** What the sign-in page says when it is shown instead of a console page. */
export interface SignInState {
  message?: string;
}

/**
 * The signed-in console: a header with who is signed in and a way out, the sections their role
 * allows, and the page. Without a session (or once it ends) it goes to sign-in, saying why.
 */
export function ConsoleLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const me = useQuery(meQuery);
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();

  // Close the menu on a phone once a section is chosen.
  useEffect(close, [location.pathname, close]);

  useEffect(() => {
    const ended = (event: Event) => {
      queryClient.clear();
      const message = (event as CustomEvent<string>).detail;
      void navigate(paths.signIn, { replace: true, state: { message } satisfies SignInState });
    };
    window.addEventListener(SESSION_ENDED_EVENT, ended);
    return () => window.removeEventListener(SESSION_ENDED_EVENT, ended);
  }, [navigate, queryClient]);

  const signOut = useMutation({
    mutationFn: () => api<{ ok: true }>('/auth/sign-out', { method: 'POST' }),
    onSettled: () => {
      queryClient.clear();
      void navigate(paths.signIn, { replace: true, state: { message: 'You have signed out.' } satisfies SignInState });
    },
  });

  if (me.isPending)
    return (
      <Center h="100vh">
        <Loader role="status" aria-label="Loading the console" />
      </Center>
    );
  if (me.isError) {
    const message =
      me.error instanceof ApiError && me.error.status === 401 && me.error.message.includes('ended')
        ? me.error.message
        : undefined;
    if (me.error instanceof ApiError && me.error.status !== 401)
      return (
        <Center h="100vh" p="md">
          <Stack align="center">
            <Text role="alert">{me.error.message}</Text>
            <Button onClick={() => void me.refetch()}>Try again</Button>
          </Stack>
        </Center>
      );
    return <Navigate to={paths.signIn} replace state={{ message } satisfies SignInState} />;
  }
  const staff = me.data;
  const sections = SECTIONS.filter((s) => staff.actions.includes(s.action));

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close the menu' : 'Open the menu'}
              aria-expanded={opened}
              aria-controls="console-navigation"
            />
            <Text fw={700} component="span">
              Ampere <VisuallyHidden>operator</VisuallyHidden>
              <Text span c="dimmed" fw={400} visibleFrom="xs">
                {' '}
                console
              </Text>
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" ta="right" lh={1.2} data-testid="signed-in-as">
              {staff.name}
              <Text span display="block" size="xs" c="dimmed">
                {STAFF_ROLE_LABELS[staff.role]}
              </Text>
            </Text>
            <Button variant="default" size="xs" onClick={() => signOut.mutate()} loading={signOut.isPending}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" id="console-navigation" aria-label="Console sections">
        {sections.map((s) => (
          <NavLink
            key={s.to}
            component={RouterLink}
            to={s.to}
            label={s.label}
            variant="filled"
            active={
              location.pathname.startsWith(s.to) ||
              // A trip's timeline is reached from Lookup.
              (s.to === paths.lookup && location.pathname.startsWith(paths.trip('')))
            }
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
