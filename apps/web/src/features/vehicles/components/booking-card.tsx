import { Alert, Button, Checkbox, Chip, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate } from '../../../shared/router/react.tsx';
import { busyFromIso, isPeriodFree } from '@ampere/domain/availability';
import type { Addon, Vehicle } from '@ampere/domain/contract/catalog';
import type { Trip } from '@ampere/domain/dates';
import { formatDateShort, formatTime12 } from '@ampere/domain/format';
import { formatPrice, formatTotal } from '@ampere/domain/money';
import { quoteTrip } from '@ampere/domain/pricing';
import { PERIOD_CHOICES, periodLabel, rentalDays } from '@ampere/domain/rental';
import { addDays, toInstant } from '@ampere/domain/time';
import { isOneWay } from '@ampere/domain/vehicle';
import { paths } from '../../../shared/paths.ts';
import { smsLink } from '../../../shared/sms-link.ts';
import { track } from '../../../shared/analytics.ts';
import { useClientConfig } from '../../../shared/api/config.ts';
import { getSession } from '../../../shared/auth/session-store.ts';
import { LazyChangeDatesModal as ChangeDatesModal } from '../../../shared/ui/dates/lazy-change-dates-modal.ts';
import { addonsQueryOptions, returnLocationsQueryOptions } from '../public/vehicle-api.ts';
import classes from './vehicle.module.css';
import '../../../shared/ui/mantine-extra-styles.ts';

export interface BookingCardProps {
  vehicle: Vehicle;
  trip: Trip;
  onTripChange(trip: Trip): void;
}

const addonPrice = (a: Addon) =>
  a.charge_frequency === 'DAY' ? `${formatPrice(a.amount)}/day` : `${formatPrice(a.amount)} one-time`;

/** Dates, return location, extras and the full price; Book only where self-serve booking is allowed. */
export function BookingCard({ vehicle, trip, onTripChange }: BookingCardProps) {
  const navigate = useNavigate();
  const { conciergePhone } = useClientConfig();
  const [datesOpen, setDatesOpen] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [returnId, setReturnId] = useState(String(vehicle.location.id));
  const tz = vehicle.location.timezone;
  const pickupAt = toInstant({ date: trip.pickupDate, time: trip.pickupTime }, tz).toISOString();
  const returnAt = toInstant({ date: trip.returnDate, time: trip.returnTime }, tz).toISOString();
  const addons = useQuery(addonsQueryOptions(vehicle.vin, pickupAt, returnAt));
  const returnLocations = useQuery(returnLocationsQueryOptions(vehicle.location.region_id));
  const busy = useMemo(() => busyFromIso(vehicle.busy), [vehicle.busy]);
  // Decision 015: Book is offered exactly when the domain's one rule finds the period free.
  const isFree = isPeriodFree(busy, Date.parse(pickupAt), Date.parse(returnAt));

  const days = rentalDays(
    { date: trip.pickupDate, time: trip.pickupTime },
    { date: trip.returnDate, time: trip.returnTime },
  );
  const dropoff = (returnLocations.data ?? []).find((l) => String(l.id) === returnId) ?? vehicle.location;
  const oneWay = isOneWay(vehicle.location, dropoff);
  // A one-way trip lists no extras (the concierge books it), so none stay in its price either.
  const selected = oneWay ? [] : (addons.data ?? []).filter((a) => chosen.includes(a.id));
  const quote = quoteTrip({
    rackRateCents: vehicle.rack_rate,
    days,
    taxRatePpm: vehicle.location.tax_rate_ppm,
    addons: selected.map((a) => ({ id: a.id, type: a.type, amount: a.amount, frequency: a.charge_frequency })),
  });
  const options = [vehicle.location, ...(returnLocations.data ?? []).filter((l) => l.id !== vehicle.location.id)];

  const book = () => {
    track('book_now_clicked', { vin: vehicle.vin, total: quote.totalCents });
    const booking = {
      vehicleVin: vehicle.vin,
      pickupDate: trip.pickupDate,
      pickupTime: trip.pickupTime,
      returnDate: trip.returnDate,
      returnTime: trip.returnTime,
      addonIds: JSON.stringify(chosen),
      vehicleTimezone: tz,
    };
    // Spec 2: signed out, the login redirect is 'create-booking' plus the booking details, so it resumes.
    void navigate(getSession() ? paths.createBooking(booking) : paths.login('create-booking', booking));
  };

  return (
    <Paper withBorder radius="lg" p="md" shadow="xs" component="section" aria-labelledby="booking-title">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline">
          <Title order={2} size="h3" id="booking-title">
            {formatPrice(vehicle.rack_rate)}
            <Text span size="sm" fw={400}>
              /day
            </Text>
          </Title>
          <Text size="sm" c="dark.3">
            {periodLabel(days)}
          </Text>
        </Group>
        {!vehicle.is_self_serve_booking_allowed && (
          <Alert color="gray" title="Book with our team" data-testid="team-booking-note">
            <Text size="sm">
              This car isn’t set up for online booking, so our concierge books it for you by text. Choose your dates
              below to see the price.
            </Text>
          </Alert>
        )}
        <Paper withBorder p="xs" radius="md">
          {/* On a narrow card the dates wrap, between the day and the time, and the button keeps its whole label. */}
          <Group justify="space-between" wrap="nowrap">
            <div className={classes.dates}>
              <Text size="xs" c="dark.3">
                Pickup
              </Text>
              <Text size="sm" fw={600}>
                <span>{formatDateShort(trip.pickupDate)},</span> <span>{formatTime12(trip.pickupTime)}</span>
              </Text>
              <Text size="xs" c="dark.3" mt={4}>
                Return
              </Text>
              <Text size="sm" fw={600}>
                <span>{formatDateShort(trip.returnDate)},</span> <span>{formatTime12(trip.returnTime)}</span>
              </Text>
            </div>
            <Button variant="light" size="xs" flex="none" onClick={() => setDatesOpen(true)}>
              Change Dates
            </Button>
          </Group>
        </Paper>
        <Group gap={6} role="group" aria-label="Rental length">
          {PERIOD_CHOICES.map((n) => (
            <Chip
              key={n}
              size="xs"
              checked={days === n && trip.pickupTime === trip.returnTime}
              onChange={() =>
                onTripChange({ ...trip, returnDate: addDays(trip.pickupDate, n), returnTime: trip.pickupTime })
              }
            >
              {periodLabel(n)}
            </Chip>
          ))}
        </Group>
        <NativeSelect
          label="Return location"
          value={returnId}
          onChange={(e) => setReturnId(e.currentTarget.value)}
          data={options.map((l) => ({ value: String(l.id), label: l.name }))}
          description={
            oneWay
              ? `Returning to ${dropoff.name} makes this a one-way trip: our concierge books it by text.`
              : undefined
          }
          inputWrapperOrder={['label', 'input', 'description']}
        />
        {!oneWay && (
          <Stack gap={6} role="group" aria-label="Extras">
            <Text size="sm" fw={600}>
              Extras
            </Text>
            {(addons.data ?? []).map((a) => (
              <Checkbox
                key={a.id}
                checked={chosen.includes(a.id)}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  setChosen(on ? [...chosen, a.id] : chosen.filter((id) => id !== a.id));
                  if (on && a.type === 'DAMAGE_WAIVER')
                    track('damage_waiver_selected_on_booking_card', {
                      vin: vehicle.vin,
                      addon_id: a.id,
                      price_per_day: a.amount,
                    });
                }}
                label={`${a.name} · ${addonPrice(a)}`}
                description={a.description}
              />
            ))}
          </Stack>
        )}
        <div aria-label="Price breakdown" role="group">
          {quote.lines.map((l) => (
            <div key={`${l.kind}-${l.label}`} className={classes.line}>
              <span>
                {l.kind === 'RACK'
                  ? `${formatPrice(vehicle.rack_rate)} × ${periodLabel(days)}`
                  : l.kind === 'TAX'
                    ? 'Sales tax'
                    : l.label}
              </span>
              <span>{formatTotal(l.amountCents)}</span>
            </div>
          ))}
          <div className={classes.total}>
            <span>Total</span>
            <span>{formatTotal(quote.totalCents)}</span>
          </div>
          <Text size="xs" c="dark.3" mt={4}>
            Includes tax. A refundable $200.00 deposit is held at checkout.
          </Text>
        </div>
        {!isFree && (
          // The light alert's own red title reads 2.8:1 on its tint; red.9 reads above 4.5:1.
          <Alert color="red" title="Not available" styles={{ title: { color: 'var(--mantine-color-red-9)' } }}>
            This car is booked for part of these dates. Change your dates to book it.
          </Alert>
        )}
        {oneWay ? (
          <Alert color="ampere" title="One-way trips are booked by text">
            <Text size="sm">Returning somewhere else? Our concierge books one-way trips by text message.</Text>
            <Button component="a" href={smsLink(conciergePhone)} mt="xs" size="xs">
              Text {conciergePhone}
            </Button>
          </Alert>
        ) : vehicle.is_self_serve_booking_allowed ? (
          // Under 768 px this bar stays at the foot of the screen with the total, wherever the renter scrolls.
          <div className={classes.bookBar}>
            <div className={classes.bookBarTotal} aria-hidden="true">
              <Text size="xs" c="dark.3">
                Total · {periodLabel(days)}
              </Text>
              <Text fw={700}>{formatTotal(quote.totalCents)}</Text>
            </div>
            <Button size="md" onClick={book} disabled={!isFree || days < 1}>
              Book
            </Button>
          </div>
        ) : (
          <Alert color="gray" title="Booked with our team">
            <Text size="sm">This car is booked through our concierge. Text us and we'll set it up.</Text>
            <Button component="a" href={smsLink(conciergePhone)} mt="xs" size="xs" variant="outline">
              Text {conciergePhone}
            </Button>
          </Alert>
        )}
      </Stack>
      <ChangeDatesModal
        opened={datesOpen}
        onClose={() => setDatesOpen(false)}
        initial={trip}
        timeZone={tz}
        bufferHours={vehicle.location.min_reservation_buffer_hours}
        busy={busy}
        onApply={(t) => {
          setDatesOpen(false);
          onTripChange(t);
        }}
      />
    </Paper>
  );
}
