import { Stack, Text, Title } from '@mantine/core';
import { SECURITY_DEPOSIT_CENTS } from '@ampere/domain/constants';
import type { Reservation } from '@ampere/domain/contract/booking';
import { formatTotal } from '@ampere/domain/money';
import { mainPhoto } from '@ampere/domain/photos';
import {
  formatInstant,
  groupedLines,
  pendingCharges,
  pendingTotalCents,
} from '../../../shared/reservations/booking-rules.ts';
import classes from './booking.module.css';

/**
 * The payment page's trip details (spec 2): the car, pickup and return in each location's zone,
 * the pending line items, the $200.00 deposit on a new reservation, and the total due.
 */
export function TripSummary({ reservation: r }: { reservation: Reservation }) {
  const photo = mainPhoto(r.vehicle.images);
  const lines = groupedLines(pendingCharges(r));
  const discount = lines.reduce((sum, l) => sum + l.discountCents, 0);
  const deposit = r.transactions.find(
    (t) => t.category === 'Deposit' && t.status !== 'Canceled' && t.status !== 'Failed',
  );
  return (
    <section className={classes.panel} aria-labelledby="trip-details-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="trip-details-title">
          Trip details
        </Title>
        {photo && (
          <img className={classes.photo} src={photo.image_url} alt={`${r.vehicle.year} ${r.vehicle.model.name}`} />
        )}
        <Text fw={700}>
          {r.vehicle.year} {r.vehicle.model.name}
        </Text>
        <dl style={{ margin: 0 }}>
          <Text component="dt" size="xs" c="dimmed">
            Pickup
          </Text>
          <Text component="dd" size="sm" m={0}>
            {formatInstant(r.pickup_at, r.pickup_location.timezone)}
          </Text>
          <Text component="dd" size="sm" m={0} mb={6}>
            {r.pickup_location.name}
          </Text>
          <Text component="dt" size="xs" c="dimmed">
            Return
          </Text>
          <Text component="dd" size="sm" m={0}>
            {formatInstant(r.return_at, r.dropoff_location.timezone)}
          </Text>
          <Text component="dd" size="sm" m={0}>
            {r.dropoff_location.name}
          </Text>
        </dl>
        <div role="group" aria-label="Price breakdown">
          {lines.map((l) => (
            <div key={l.label} className={classes.line}>
              <span>{l.label}</span>
              <span>{formatTotal(l.cents)}</span>
            </div>
          ))}
          {discount > 0 && (
            <div className={`${classes.line} ${classes.discount}`}>
              <span>Discount{r.discount_code ? ` (${r.discount_code})` : ''}</span>
              <span>−{formatTotal(discount)}</span>
            </div>
          )}
          <div className={classes.total}>
            <span>Total</span>
            <span>{formatTotal(pendingTotalCents(r))}</span>
          </div>
          {(r.status === 'Started' || deposit) && (
            <div className={classes.line}>
              <span>Security deposit (refundable hold)</span>
              <span>{formatTotal(deposit?.amount ?? SECURITY_DEPOSIT_CENTS)}</span>
            </div>
          )}
        </div>
      </Stack>
    </section>
  );
}
