import { Stack, Text, Title } from '@mantine/core';
import { SECURITY_DEPOSIT_CENTS } from '@ampere/domain/constants';
import type { Reservation } from '@ampere/domain/contract/booking';
import { isNewReservation } from '@ampere/domain/booking';
import { formatTotal } from '@ampere/domain/money';
import { discountLabel } from '@ampere/domain/line-items';
import { mainPhoto } from '@ampere/domain/photos';
import { formatInstant, groupedLines, pendingCharges, pendingTotalCents } from '../public/booking-rules.ts';
import classes from './booking.module.css';

/** A date that moves with the change: old → new; one that stays, as it is. */
export function Moved({ from, to, timeZone }: { from: string | null; to: string; timeZone: string }) {
  if (from === null || Date.parse(from) === Date.parse(to)) return <>{formatInstant(to, timeZone)}</>;
  return (
    <>
      <span className={classes.was}>{formatInstant(from, timeZone)}</span> →{' '}
      <strong>{formatInstant(to, timeZone)}</strong>
    </>
  );
}

/**
 * The payment page's trip details (spec 2): the car, pickup and return in each location's zone,
 * the pending line items, the $200.00 deposit on a new reservation only, and the total due. For a
 * change of dates waiting for payment (decision 027) the dates read old → new and the items are
 * what the change adds (decision 053).
 */
export function TripSummary({ reservation: r }: { reservation: Reservation }) {
  const photo = mainPhoto(r.vehicle.images);
  const lines = groupedLines(pendingCharges(r));
  const discount = lines.reduce((sum, l) => sum + l.discountCents, 0);
  const isNew = isNewReservation(r);
  const change = isNew ? null : r.requested_change;
  const deposit = r.transactions.find(
    (t) => t.category === 'Deposit' && t.status !== 'Canceled' && t.status !== 'Failed',
  );
  return (
    <section className={classes.panel} aria-labelledby="trip-details-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="trip-details-title">
          {change ? 'Your new dates' : 'Trip details'}
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
            <Moved
              from={change ? r.pickup_at : null}
              to={change?.pickup_at ?? r.pickup_at}
              timeZone={r.pickup_location.timezone}
            />
          </Text>
          <Text component="dd" size="sm" m={0} mb={6}>
            {r.pickup_location.name}
          </Text>
          <Text component="dt" size="xs" c="dimmed">
            Return
          </Text>
          <Text component="dd" size="sm" m={0}>
            <Moved
              from={change ? r.return_at : null}
              to={change?.return_at ?? r.return_at}
              timeZone={r.dropoff_location.timezone}
            />
          </Text>
          <Text component="dd" size="sm" m={0}>
            {r.dropoff_location.name}
          </Text>
        </dl>
        <div role="group" aria-label={change ? 'What the change adds' : 'Price breakdown'}>
          {lines.map((l) => (
            <div key={l.label} className={classes.line}>
              <span>{l.label}</span>
              <span>{formatTotal(l.cents)}</span>
            </div>
          ))}
          {discount > 0 && (
            <div className={`${classes.line} ${classes.discount}`}>
              <span>{discountLabel(r.discount_code)}</span>
              <span>−{formatTotal(discount)}</span>
            </div>
          )}
          <div className={classes.total}>
            <span>{change ? 'Total for the change' : 'Total'}</span>
            <span>{formatTotal(pendingTotalCents(r))}</span>
          </div>
          {/* Spec 2: the deposit is shown on new reservations; a change or a balance adds no hold. */}
          {isNew && (
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
