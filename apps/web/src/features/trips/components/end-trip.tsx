import { Alert, Anchor, Button, Group, Modal, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from '../../../shared/router/react.tsx';
import type { Reservation } from '@ampere/domain/contract/booking';
import { paths } from '../../../shared/paths.ts';
import { ApiError, api } from '../../../shared/api/client.ts';
import { reservationKeys } from '../public/get-reservation.ts';
import { EndTripNumbers } from './end-trip-preview.tsx';
import { EndTripSummary } from './end-trip-summary.tsx';

/** POST /api/v1/reservations/{id}/end */
const endTrip = async (platformId: string) =>
  (
    await api<{ reservation: Reservation }>(`/api/v1/reservations/${encodeURIComponent(platformId)}/end`, {
      method: 'POST',
    })
  ).reservation;

/**
 * Spec 2 'End Trip' modal: the renter confirms (the key stops working, the trip can no longer be
 * extended), then 'Thanks for driving with us!' with 'Back to trip details'. Offered while On Rent.
 * Before confirming, the car's readings and the fees ending now would take; after, what was taken
 * (decision 054).
 */
export function EndTrip({
  reservation,
  showReturnLink = true,
}: {
  reservation: Reservation;
  showReturnLink?: boolean;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const [ended, setEnded] = useState<Reservation | null>(null);
  const mutation = useMutation({
    mutationFn: () => endTrip(reservation.platform_id),
    onSuccess: (r) => {
      setEnded(r);
      void queryClient.invalidateQueries({ queryKey: reservationKeys.lists() });
    },
  });
  const close = () => {
    setOpen(false);
    if (!ended) return;
    // Back on the trip's details, which show the ended trip.
    queryClient.setQueryData(reservationKeys.detail(reservation.platform_id), ended);
    const detail = paths.trip.detail(reservation.platform_id);
    if (pathname !== detail) void navigate(detail);
  };
  if (reservation.status !== 'On Rent' && !open) return null;
  return (
    <section
      aria-labelledby="end-title"
      style={{ border: '1px solid #dee2e6', borderRadius: 12, padding: 16, display: 'grid', gap: 8 }}
    >
      <Title order={2} size="h4" id="end-title">
        End Trip
      </Title>
      <Text size="sm">
        Park the car at the return location, take your things, and lock it. Then end your trip here.
      </Text>
      <Group gap="md">
        <Button onClick={() => setOpen(true)}>End Trip</Button>
        {showReturnLink && (
          <Anchor
            component={Link}
            to={paths.trip.return(reservation.platform_id)}
            size="sm"
            c="ampere.8"
            underline="always"
          >
            Return instructions
          </Anchor>
        )}
      </Group>
      <Modal opened={open} onClose={close} title={ended ? 'Thanks for driving with us!' : 'End your trip?'} centered>
        {ended ? (
          <>
            <EndTripSummary reservation={ended} />
            <Group justify="flex-end" mt="md">
              <Button onClick={close}>Back to trip details</Button>
            </Group>
          </>
        ) : (
          <>
            <EndTripNumbers platformId={reservation.platform_id} />
            <Text size="sm" mt="md">
              Once you end your trip, your digital key stops working and the trip can no longer be extended. Make sure
              the car is parked at the return location and you have everything with you.
            </Text>
            {mutation.error && (
              <Alert color="red" mt="sm" role="alert">
                {mutation.error instanceof ApiError
                  ? mutation.error.message
                  : 'The trip could not be ended. Please try again.'}
              </Alert>
            )}
            <Group justify="flex-end" mt="md">
              <Button variant="default" onClick={close}>
                Not Yet
              </Button>
              <Button onClick={() => mutation.mutate()} loading={mutation.isPending}>
                End Trip
              </Button>
            </Group>
          </>
        )}
      </Modal>
    </section>
  );
}
