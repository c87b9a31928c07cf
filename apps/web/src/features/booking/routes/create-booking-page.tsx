import { Button, Container, List, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { formatDateShort, formatTime12 } from '@ampere/domain/format';
import type { LocalDate, LocalTime } from '@ampere/domain/time';
import { paths } from '../../../app/paths.ts';

function when(date: string | null, time: string | null): string {
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return 'not chosen';
  return time && /^\d{2}:\d{2}$/.test(time) ? `${formatDateShort(date as LocalDate)}, ${formatTime12(time as LocalTime)}` : formatDateShort(date as LocalDate);
}

/**
 * /create-booking (protected). Creating the reservation arrives with the booking issue; until then
 * the page shows the choices the renter carried here, so nothing they picked is lost.
 */
export function CreateBookingPage() {
  const [params] = useSearchParams();
  const vin = params.get('vehicleVin');
  return (
    <Container size="sm" py="xl">
      <Title order={1}>Your booking</Title>
      <Text mt="md">Nothing is booked yet: online checkout opens with our next release. Here is what you chose.</Text>
      <List mt="md" spacing={4}>
        <List.Item>Vehicle: {vin ?? 'not chosen'}</List.Item>
        <List.Item>Pickup: {when(params.get('pickupDate'), params.get('pickupTime'))}</List.Item>
        <List.Item>Return: {when(params.get('returnDate'), params.get('returnTime'))}</List.Item>
      </List>
      {vin && (
        <Button
          component={Link}
          mt="lg"
          to={paths.vehicle(vin, { pickupDate: params.get('pickupDate'), pickupTime: params.get('pickupTime'), returnDate: params.get('returnDate'), returnTime: params.get('returnTime') })}
        >
          Back to the car
        </Button>
      )}
    </Container>
  );
}
