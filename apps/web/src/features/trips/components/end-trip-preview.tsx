import { Alert, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { EndTripPreview } from '@ampere/domain/contract/end-trip';
import { returnTiming, waivedNote } from '@ampere/domain/end-trip';
import { formatInstantInZone, formatTimeInZone } from '@ampere/domain/format';
import { formatTotal } from '@ampere/domain/money';
import { formatBattery, formatMiles } from '@ampere/domain/receipt';
import { ApiError } from '../../../shared/api/client.ts';
import { getEndTripPreview } from '../api/get-end-trip-preview.ts';
import classes from './trip.module.css';

/**
 * The numbers first (decision 054): what the car reports now, and the fees ending the trip now
 * would take and from where. Read fresh each time the dialog opens; a reading is never reused.
 */
export function EndTripNumbers({ platformId }: { platformId: string }) {
  const preview = useQuery({
    queryKey: ['reservations', platformId, 'end-preview'],
    queryFn: ({ signal }) => getEndTripPreview(platformId, signal),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  if (preview.isPending)
    return (
      <Stack gap={6} role="status" aria-label="Reading the car">
        <Skeleton height={18} width="60%" />
        <Skeleton height={52} />
        <Skeleton height={18} width="40%" />
      </Stack>
    );
  if (preview.error)
    return (
      <Alert color="yellow" role="alert">
        {preview.error instanceof ApiError
          ? preview.error.message
          : "We couldn't work out the fees just now. You can still end your trip; your receipt will show any fees."}
      </Alert>
    );
  return <Numbers p={preview.data} />;
}

function Numbers({ p }: { p: EndTripPreview }) {
  const car = p.car;
  return (
    <Stack gap="sm">
      <section aria-labelledby="end-now-title">
        <Title order={3} size="h6" id="end-now-title" mb={6}>
          What the car reports now
        </Title>
        {car ? (
          <dl className={classes.metrics}>
            <div>
              <dt>Battery</dt>
              <dd>
                {formatBattery(car.battery_level)}{' '}
                <Text span size="xs" c="dimmed" fw={400}>
                  (at least {formatBattery(car.charging_minimum)}
                  {car.low_at_pickup ? ', the charge it had at pickup' : ''})
                </Text>
              </dd>
            </div>
            <div>
              <dt>Miles driven</dt>
              <dd>
                {formatMiles(car.miles_driven, 'Not known')}{' '}
                <Text span size="xs" c="dimmed" fw={400}>
                  {car.included_miles === null ? '(unlimited)' : `(${formatMiles(car.included_miles)} included)`}
                </Text>
              </dd>
            </div>
          </dl>
        ) : (
          <Alert color="yellow" role="status">
            {p.car_message}
          </Alert>
        )}
        <Text size="sm" mt={6}>
          <Text span fw={700}>
            {returnTiming(new Date(p.return_at), new Date(p.as_of))}
          </Text>{' '}
          (now {formatTimeInZone(p.as_of, p.timezone)}, return by {formatInstantInZone(p.return_at, p.timezone)}).
        </Text>
      </section>
      <section aria-labelledby="end-fees-title">
        <Title order={3} size="h6" id="end-fees-title" mb={4}>
          Fees if you end now
        </Title>
        {p.fees.length === 0 ? (
          <Text size="sm">No fees: the car is back as booked.</Text>
        ) : (
          <div role="group" aria-label="Fees if you end now">
            {p.fees.map((f) => (
              <div key={f.kind} className={classes.line}>
                <span>{f.description}</span>
                <span>{formatTotal(f.amount)}</span>
              </div>
            ))}
            <div className={classes.total}>
              <span>Total</span>
              <span>{formatTotal(p.total)}</span>
            </div>
          </div>
        )}
        <Text size="sm" mt={6}>
          {howTaken(p)}
        </Text>
      </section>
    </Stack>
  );
}

/** Where the fees would come from: the deposit hold first, then the card (decision 026). */
function howTaken(p: EndTripPreview): string {
  // A remainder no card can be charged is written off (decision 056), and the renter is told so.
  const waived = p.waived > 0 ? ` The other ${waivedNote(p.waived)}.` : '';
  if (!p.deposit)
    return p.due > 0
      ? `${formatTotal(p.due)} will be left to pay by card.`
      : p.waived > 0
        ? `${waivedNote(p.waived)}.`
        : '';
  const held = formatTotal(p.deposit.held);
  if (p.deposit.kept === 0) return `Your ${held} deposit hold will be released in full.`;
  const kept = `${formatTotal(p.deposit.kept)} will come from your ${held} deposit hold`;
  if (p.due > 0) return `${kept}; ${formatTotal(p.due)} will be left to pay by card.`;
  if (p.deposit.released === 0) return `${kept}.${waived}`;
  return `${kept} and ${formatTotal(p.deposit.released)} will be released.`;
}
