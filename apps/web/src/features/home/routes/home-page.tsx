import { Button, Container, Group, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { useSession } from '../../../shared/auth/use-session.ts';

/** The signed-in home (spec 2): greeting with the first name when known, and the way to a car or a trip. */
export function HomePage() {
  const firstName = useSession()?.user?.first_name?.trim();
  return (
    <Container size="md" py="xl">
      <Title order={1}>{firstName ? `Welcome back, ${firstName}` : 'Welcome back'}</Title>
      <Text mt="sm" size="lg">Where are you driving next? Find an electric car by city and dates, or check on a trip you've booked.</Text>
      <Group mt="lg">
        <Button component={Link} to={paths.search()} size="md">Search</Button>
        <Button component={Link} to={paths.trips()} size="md" variant="outline">My Trips</Button>
      </Group>
    </Container>
  );
}
