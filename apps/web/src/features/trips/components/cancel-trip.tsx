import { Alert, Button, Group, Modal, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Reservation } from '@ampere/domain/contract/booking';
import { formatTotal } from '@ampere/domain/money';
import { paidCents } from '@ampere/domain/receipt';
import { ApiError, api } from '../../../shared/api/client.ts';
import { freeCancellationUntil } from '../public/booking-rules.ts';
import { noCancelReason } from '../cancel-words.ts';
import { reservationKeys } from '../public/get-reservation.ts';

const BOX = { border: '1px solid #dee2e6', borderRadius: 12, padding: 16, display: 'grid', gap: 8 } as const;

/** POST /api/v1/reservations/{id}/cancel */
const cancelTrip = async (platformId: string) =>
  (
    await api<{ reservation: Reservation }>(`/api/v1/reservations/${encodeURIComponent(platformId)}/cancel`, {
      method: 'POST',
    })
  ).reservation;

/** What the renter has paid for the trip (not the deposit hold, the receipt's total): what a cancellation gives back. */
const paidFor = (r: Reservation) => paidCents(r.transactions);

/**
 * Spec 4 and 9: cancelling is offered, free, only until one day before pickup. Whether it still can
 * be is the server's answer (`can_cancel`, on its clock, which the test clock moves), never the
 * browser's clock. The renter confirms in a dialog that says what comes back; afterwards the page
 * says it is done. When Cancel is not offered, the page says why (decision 053).
 */
export function CancelTrip({ reservation }: { reservation: Reservation }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<number | null>(null);
  const mutation = useMutation({
    mutationFn: () => cancelTrip(reservation.platform_id),
    onSuccess: (r) => {
      setDone(paidFor(reservation));
      setOpen(false);
      queryClient.setQueryData(reservationKeys.detail(reservation.platform_id), r);
      void queryClient.invalidateQueries({ queryKey: reservationKeys.lists() });
    },
  });
  if (done !== null) {
    return (
      <Alert color="green" role="status">
        <strong>Your trip is cancelled.</strong>{' '}
        {done > 0 ? `${formatTotal(done)} is on its way back to your card` : 'Nothing was charged'}, and the deposit
        hold is released.
      </Alert>
    );
  }
  if (!reservation.can_cancel) {
    const why = noCancelReason(reservation);
    if (!why) return null;
    return (
      <section aria-labelledby="cancel-title" style={BOX}>
        <Title order={2} size="h4" id="cancel-title">
          Cancellation
        </Title>
        <Text size="sm">{why}</Text>
      </section>
    );
  }
  const paid = paidFor(reservation);
  return (
    <section aria-labelledby="cancel-title" style={BOX}>
      <Title order={2} size="h4" id="cancel-title">
        Cancel Trip
      </Title>
      <Text size="sm">Free cancellation until {freeCancellationUntil(reservation)}.</Text>
      <div>
        <Button variant="outline" color="red" c="red.9" onClick={() => setOpen(true)}>
          Cancel Trip
        </Button>
      </div>
      <Modal opened={open} onClose={() => setOpen(false)} title="Cancel this trip?" centered>
        <Text size="sm">
          {paid > 0 ? `The ${formatTotal(paid)} you paid is refunded to your card` : 'Nothing has been charged'} and the
          $200.00 deposit hold is released. The car goes back on offer for these dates; this cannot be undone.
        </Text>
        {mutation.error && (
          <Alert color="red" mt="sm" role="alert">
            {mutation.error instanceof ApiError
              ? mutation.error.message
              : 'The trip could not be cancelled. Please try again.'}
          </Alert>
        )}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setOpen(false)}>
            Keep Trip
          </Button>
          <Button color="red.9" onClick={() => mutation.mutate()} loading={mutation.isPending}>
            Cancel Trip
          </Button>
        </Group>
      </Modal>
    </section>
  );
}
