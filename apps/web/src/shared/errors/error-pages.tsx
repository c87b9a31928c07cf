import { Button, Container, Group, Text, Title } from '@mantine/core';
import { Link } from '../router/react.tsx';
import { paths } from '../paths.ts';
import { useClientConfig } from '../api/config.ts';
import { usePageTitle } from '../page-title.ts';

function Contacts() {
  const config = useClientConfig();
  return (
    <Group mt="lg">
      {config.supportEmail && (
        <Button component="a" href={`mailto:${config.supportEmail}`} variant="outline">
          {config.supportEmail}
        </Button>
      )}
      {config.supportPhone && (
        <Button component="a" href={`tel:${config.supportPhone.replace(/[^+\d]/g, '')}`} variant="outline">
          {config.supportPhone}
        </Button>
      )}
    </Group>
  );
}

/** Also shown in place of a car or trip that was not found: its title then says so too, not 'Vehicle {vin}'. */
export function NotFoundPage() {
  usePageTitle('Page Not Found');
  return (
    <Container size="sm" py="xl">
      <Title order={1}>Oops! Page not found.</Title>
      <Text mt="md">The page you are looking for does not exist or has moved.</Text>
      <Group mt="lg">
        <Button component={Link} to={paths.home()}>
          Back Home
        </Button>
        <Button component={Link} to={paths.search()} variant="outline">
          Search Vehicles
        </Button>
      </Group>
    </Container>
  );
}

export function ForbiddenPage() {
  return (
    <Container size="sm" py="xl">
      <Title order={1}>Oops! you don't have access to this page.</Title>
      <Text mt="md">Make sure you're logged in. If you think this is a mistake, contact support.</Text>
      <Button component={Link} to={paths.login()} mt="lg">
        Sign In
      </Button>
      <Contacts />
    </Container>
  );
}

export function DowntimePage() {
  return (
    <Container size="sm" py="xl">
      <Title order={1}>We're experiencing some downtime.</Title>
      <Text mt="md">We're working on it. If you need help in the meantime, contact support.</Text>
      <Contacts />
    </Container>
  );
}
