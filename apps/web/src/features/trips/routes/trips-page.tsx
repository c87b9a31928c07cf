import { Button, Container, Paper, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../app/paths.ts';

/**
 * My Trips (spec 2). Booking online is not open yet, so no renter has a trip to list: the page shows
 * the spec's empty state, with the way to the models.
 */
export function TripsPage() {
  return (
    <Container size="md" py="xl">
      <Title order={1}>My Trips</Title>
      <Paper withBorder radius="lg" p="xl" mt="lg" ta="center">
        <Title order={2} size="h3">No trips yet!</Title>
        <Text mt="xs">You haven't booked a trip yet. Pick a model and dates to find your car; your trips will show up here.</Text>
        <Button component={Link} to={paths.search()} mt="lg">Models</Button>
      </Paper>
    </Container>
  );
}
