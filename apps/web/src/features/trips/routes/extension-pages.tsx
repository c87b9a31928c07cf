import { Alert, Anchor, Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from '../../../shared/router/react.tsx';
import { TIME_STEP_MINUTES } from '@ampere/domain/constants';
import type { DateChangeBody, DateChangePreview, Reservation } from '@ampere/domain/contract/booking';
import { formatTime12 } from '@ampere/domain/format';
import { formatTotal } from '@ampere/domain/money';
import { RACK_DESCRIPTION, dateChangeTitle, isOpenTrip } from '@ampere/domain/booking';
import { TAX_LABEL, rentalLabel } from '@ampere/domain/line-items';
import { addDays, toLocal } from '@ampere/domain/time';
import { paths, patterns } from '../../../shared/paths.ts';
import { ApiError, api } from '../../../shared/api/client.ts';
import { formatInstantInZone } from '../public/booking-rules.ts';
import { reservationKeys, useReservation } from '../public/get-reservation.ts';
import { TripFailure, TripLoading } from '../../../shared/errors/trip-fallback.tsx';
import classes from '../components/trip.module.css';

const changeUrl = (id: string, preview = false) =>
  `/api/v1/reservations/${encodeURIComponent(id)}/change${preview ? '/preview' : ''}`;
const TIMES = Array.from({ length: (24 * 60) / TIME_STEP_MINUTES }, (_, i) => {
  const m = i * TIME_STEP_MINUTES;
  const value = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return { value, label: formatTime12(value) };
});

function useTrip() {
  const { id } = useParams(patterns.trip.detail);
  return { id, reservation: useReservation(id) };
}

const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : 'Something went wrong. Please try again.');

/** The trip's dates as the form edits them, on the pickup place's clock. */
function initialDates(r: Reservation): DateChangeBody {
  const tz = r.pickup_location.timezone;
  const pickup = toLocal(new Date(r.pickup_at), tz);
  const ret = toLocal(new Date(r.return_at), tz);
  return { pickupDate: pickup.date, pickupTime: pickup.time, returnDate: addDays(ret.date, 1), returnTime: ret.time };
}

/**
 * /trip/:id/extension (spec 2, decision 027): the renter picks a later return (and, before the trip
 * starts, an earlier pickup), sees what it adds and whether the car is free, then continues to pay
 * for the added days. What it costs is the server's preview, priced by the same rules as a booking.
 */
export function ExtensionPage() {
  const { id, reservation } = useTrip();
  if (reservation.isPending) return <TripLoading />;
  if (reservation.error) return <TripFailure error={reservation.error} />;
  return <ExtensionForm key={reservation.data.platform_id} r={reservation.data} id={id} />;
}

function ExtensionForm({ r, id }: { r: Reservation; id: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [dates, setDates] = useState<DateChangeBody>(() => initialDates(r));
  const [debounced, setDebounced] = useState(dates);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(dates), 250);
    return () => clearTimeout(t);
  }, [dates]);
  const changeable = isOpenTrip(r.status);
  const preview = useQuery({
    queryKey: ['reservations', r.platform_id, 'change-preview', debounced],
    queryFn: ({ signal }) =>
      api<DateChangePreview>(changeUrl(r.platform_id, true), { method: 'POST', body: debounced, signal }),
    enabled: changeable,
    retry: false,
  });
  const submit = useMutation({
    mutationFn: async () =>
      (await api<{ reservation: Reservation }>(changeUrl(r.platform_id), { method: 'POST', body: dates })).reservation,
    onSuccess: (next) => {
      queryClient.setQueryData(reservationKeys.detail(r.platform_id), next);
      void queryClient.invalidateQueries({ queryKey: reservationKeys.lists() });
      // Applied at once when it added no day: the confirmation reads what changed off the trip.
      void navigate(next.payment_balance > 0 ? paths.trip.pay(id) : paths.trip.extensionConfirmed(id));
    },
  });
  const discard = useMutation({
    mutationFn: async () =>
      (await api<{ reservation: Reservation }>(changeUrl(r.platform_id), { method: 'DELETE' })).reservation,
    onSuccess: (next) => queryClient.setQueryData(reservationKeys.detail(r.platform_id), next),
  });
  const tz = r.pickup_location.timezone;
  const set = (k: keyof DateChangeBody) => (v: string) => setDates((d) => ({ ...d, [k]: v }));
  const p = preview.data;
  const ready =
    p !== undefined && p.is_available && !preview.isFetching && JSON.stringify(debounced) === JSON.stringify(dates);

  return (
    <div className={classes.page}>
      <div>
        <Anchor component={Link} to={paths.trip.detail(r.platform_id)} size="sm" c="ampere.8">
          ← My Trip
        </Anchor>
        <Title order={1} mt={6}>
          {r.status === 'On Rent' ? 'Extend your trip' : 'Change your dates'}
        </Title>
        <Text size="sm" c="dimmed">
          {r.vehicle.year} {r.vehicle.model.name} · Trip ID {r.platform_id}
        </Text>
      </div>
      {!changeable && (
        <Alert color="gray" role="status">
          {r.status === 'Started'
            ? 'Pay for this trip before changing its dates.'
            : 'This trip can no longer be changed.'}
        </Alert>
      )}
      {r.requested_change && (
        <Alert
          color="yellow"
          title="A change is waiting for payment"
          role="status"
          styles={{ title: { color: 'var(--mantine-color-dark-7)' } }}
        >
          <Text size="sm">
            New dates {formatInstantInZone(r.requested_change.pickup_at, tz)} to{' '}
            {formatInstantInZone(r.requested_change.return_at, tz)} are held for you until you pay for them.
          </Text>
          <Group mt="xs" gap="sm">
            <Button size="xs" component={Link} to={paths.trip.pay(r.platform_id)}>
              Review &amp; Pay
            </Button>
            <Button size="xs" variant="default" onClick={() => discard.mutate()} loading={discard.isPending}>
              Keep my current dates
            </Button>
          </Group>
        </Alert>
      )}
      <section className={classes.panel} aria-labelledby="current-dates">
        <Title order={2} size="h4" id="current-dates" mb="xs">
          Your trip now
        </Title>
        <Text size="sm">Pickup {formatInstantInZone(r.pickup_at, tz)}</Text>
        <Text size="sm">Return {formatInstantInZone(r.return_at, tz)}</Text>
      </section>
      {changeable && (
        <form
          className={classes.panel}
          aria-labelledby="new-dates"
          onSubmit={(e) => {
            e.preventDefault();
            submit.mutate();
          }}
        >
          <Title order={2} size="h4" id="new-dates" mb="sm">
            New dates
          </Title>
          <Stack gap="sm">
            {r.status === 'Pending' && (
              <Group grow align="flex-start">
                <TextInput
                  type="date"
                  label="Pickup date"
                  value={dates.pickupDate}
                  max={initialDates(r).pickupDate}
                  onChange={(e) => set('pickupDate')(e.currentTarget.value)}
                />
                <NativeSelect
                  label="Pickup time"
                  data={TIMES}
                  value={dates.pickupTime}
                  onChange={(e) => set('pickupTime')(e.currentTarget.value)}
                />
              </Group>
            )}
            <Group grow align="flex-start">
              <TextInput
                type="date"
                label="Return date"
                value={dates.returnDate}
                min={toLocal(new Date(r.return_at), tz).date}
                onChange={(e) => set('returnDate')(e.currentTarget.value)}
              />
              <NativeSelect
                label="Return time"
                data={TIMES}
                value={dates.returnTime}
                onChange={(e) => set('returnTime')(e.currentTarget.value)}
              />
            </Group>
            <Text size="xs" c="dimmed">
              Times are local to {r.pickup_location.name} ({tz.replace('_', ' ')}).
            </Text>
          </Stack>
          <div aria-live="polite" style={{ marginTop: 12 }}>
            {preview.error && (
              <Alert color="red" role="alert">
                {messageOf(preview.error)}
              </Alert>
            )}
            {p && !p.is_available && (
              <Alert color="red" role="alert">
                The car is booked by someone else for part of those dates. Choose an earlier return or a later pickup.
              </Alert>
            )}
            {p && p.is_available && (
              <div role="group" aria-label="What the change adds">
                {p.added_days === 0 ? (
                  <Text size="sm">No extra day to pay: your trip moves as soon as you confirm.</Text>
                ) : (
                  <>
                    <Text size="sm" fw={600} mb={4}>
                      Adds {p.added_days} {p.added_days === 1 ? 'day' : 'days'}
                    </Text>
                    {summarise(p).map((l) => (
                      <div key={l.label} className={classes.line}>
                        <span>{l.label}</span>
                        <span>{formatTotal(l.cents)}</span>
                      </div>
                    ))}
                    <div className={classes.total}>
                      <span>To pay now</span>
                      <span>{formatTotal(p.total)}</span>
                    </div>
                  </>
                )}
              </div>
            )}
          </div>
          {submit.error && (
            <Alert color="red" mt="sm" role="alert">
              {messageOf(submit.error)}
            </Alert>
          )}
          <Group justify="flex-end" mt="md">
            <Button variant="default" component={Link} to={paths.trip.detail(r.platform_id)}>
              Back
            </Button>
            <Button type="submit" disabled={!ready} loading={submit.isPending}>
              {p && p.added_days === 0 ? 'Confirm New Dates' : 'Continue to Payment'}
            </Button>
          </Group>
        </form>
      )}
    </div>
  );
}

/** The preview's items grouped for reading: the rental days together, each add-on, the tax. */
function summarise(p: DateChangePreview): { label: string; cents: number }[] {
  const rows = new Map<string, number>();
  for (const i of p.items) {
    const label = i.description === RACK_DESCRIPTION ? rentalLabel(p.added_days) : i.description;
    rows.set(label, (rows.get(label) ?? 0) + i.amount);
  }
  return [...[...rows].map(([label, cents]) => ({ label, cents })), { label: TAX_LABEL, cents: p.tax }];
}

/**
 * /trip/:id/extension/confirmed (spec 2): the trip's new dates, and the way back to it. The title
 * says what the last change did (the domain's rule on the trip's own record: a pickup moved earlier
 * is 'modified'), however the page was reached; a trip never changed has nothing to confirm.
 */
export function ExtensionConfirmedPage() {
  const { id, reservation } = useTrip();
  if (reservation.isPending) return <TripLoading />;
  if (reservation.error) return <TripFailure error={reservation.error} />;
  const r = reservation.data;
  const title = dateChangeTitle(r);
  if (!r.requested_change && !title) return <Navigate to={paths.trip.detail(id)} replace />;
  const tz = r.pickup_location.timezone;
  return (
    <div className={classes.page}>
      <Title order={1}>{r.requested_change ? 'Your new dates are held' : title}</Title>
      {r.requested_change ? (
        <Text>Pay for the added days to make them yours: the new dates are held until then.</Text>
      ) : (
        <Text>
          {r.vehicle.year} {r.vehicle.model.name} · {formatInstantInZone(r.pickup_at, tz)} to{' '}
          {formatInstantInZone(r.return_at, tz)}
        </Text>
      )}
      <Group>
        {r.requested_change && (
          <Button component={Link} to={paths.trip.pay(id)}>
            Review &amp; Pay
          </Button>
        )}
        <Button component={Link} to={paths.trip.detail(id)} variant={r.requested_change ? 'default' : 'filled'}>
          View My Trip
        </Button>
      </Group>
    </div>
  );
}
