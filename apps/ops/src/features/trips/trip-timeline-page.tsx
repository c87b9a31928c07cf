import { Alert, Anchor, Badge, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { TimelineEvent, TripTimeline } from '@ampere/domain/contract/ops-day';
import { formatPhone } from '@ampere/domain/phone';
import { api, errorText } from '../../shared/api.ts';
import { formatDayTime } from '../../shared/dates.ts';
import { paths } from '../../shared/paths.ts';
import { TRIP_STATUS_COLOURS, TRIP_STATUS_WORDS, carWords } from '../../shared/trip-words.ts';
import { useTitle } from '../../shared/use-title.ts';
import { KeyCarPanel } from './key-car-panel.tsx';
import { InspectionLinks } from '../inspections/inspection-links.tsx';
import { TripMoneyPanel } from '../money/trip-money-panel.tsx';
import classes from './trip-timeline.module.css';

const KIND_WORDS: Record<TimelineEvent['kind'], { label: string; colour: string }> = {
  booking: { label: 'Booking', colour: 'blue.8' },
  payment: { label: 'Payment', colour: 'ampere' },
  verification: { label: 'Verification', colour: 'violet.8' },
  key: { label: 'Key', colour: 'cyan.9' },
  change: { label: 'Change', colour: 'indigo.8' },
  ride: { label: 'Ride', colour: 'teal.9' },
  fee: { label: 'Fee', colour: '#a63e00' },
  message: { label: 'Message', colour: 'gray.7' },
  staff: { label: 'Staff', colour: 'red.9' },
  support: { label: 'Support', colour: '#a63e00' },
  inspection: { label: 'Inspection', colour: 'grape.9' },
};

/**
 * A trip's timeline (issue 29 §4, decision 086): the trip at a glance, then every event in order
 * with its time on the location's clock, its kind and details, and the way to the renter's view.
 */
export function TripTimelinePage() {
  const { tripId = '' } = useParams();
  useTitle(`Trip ${tripId}`);
  const timeline = useQuery({
    queryKey: ['timeline', tripId],
    queryFn: () => api<TripTimeline>(`/trips/${encodeURIComponent(tripId)}/timeline`),
  });

  return (
    <Stack>
      <Anchor component={Link} to={paths.lookup} size="sm">
        ← Lookup
      </Anchor>
      <Title order={1}>Trip {timeline.data?.trip.reference ?? tripId}</Title>
      {timeline.isError ? (
        <Alert color="red" role="alert">
          {errorText(timeline.error)}
        </Alert>
      ) : timeline.isPending ? (
        <Loader role="status" aria-label="Loading the trip" />
      ) : (
        <Timeline data={timeline.data} />
      )}
    </Stack>
  );
}

function Timeline({ data }: { data: TripTimeline }) {
  const { trip, events } = data;
  const zone = trip.location.timezone;
  return (
    <>
      <Paper withBorder p="md" component="section" aria-labelledby="trip-summary">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h4" id="trip-summary">
            The trip
          </Title>
          <Badge color={TRIP_STATUS_COLOURS[trip.status]}>{TRIP_STATUS_WORDS[trip.status]}</Badge>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" component="dl" className={classes.facts}>
          <div>
            <dt>Renter</dt>
            <dd>
              {trip.renter ? (
                <>
                  <Anchor component={Link} to={paths.renter(trip.renter.id)}>
                    {trip.renter.name}
                  </Anchor>{' '}
                  · <Anchor href={`tel:${trip.renter.phone}`}>{formatPhone(trip.renter.phone)}</Anchor>
                  {trip.renter.email ? ` · ${trip.renter.email}` : ''}
                </>
              ) : (
                'Account closed'
              )}
            </dd>
          </div>
          <div>
            <dt>Car</dt>
            <dd>
              {carWords(trip.car)} · VIN {trip.car.vin}
            </dd>
          </div>
          <div>
            <dt>Pickup</dt>
            <dd>{formatDayTime(trip.pickupAt, zone)}</dd>
          </div>
          <div>
            <dt>Return</dt>
            <dd>{formatDayTime(trip.returnAt, zone)}</dd>
          </div>
          <div>
            <dt>Location</dt>
            <dd>
              {trip.location.name} ({zone})
            </dd>
          </div>
          <div>
            <dt>Trip id</dt>
            <dd className={classes.id}>{trip.tripId}</dd>
          </div>
        </SimpleGrid>
        <Anchor href={trip.renterViewUrl} target="_blank" rel="noopener" mt="sm" display="inline-block">
          Open the renter’s view of this trip (new tab)
        </Anchor>
        <InspectionLinks tripId={trip.reference} />
      </Paper>
      <KeyCarPanel tripId={trip.tripId} />
      <TripMoneyPanel tripId={trip.tripId} />
      <section aria-labelledby="trip-events">
        <Title order={2} size="h4" id="trip-events" mb="xs">
          Everything that happened ({events.length})
        </Title>
        {events.length === 0 ? (
          <Text c="dimmed">Nothing has happened on this trip yet.</Text>
        ) : (
          <ol className={classes.events}>
            {events.map((e, i) => (
              <li key={`${e.at}-${i}`} className={classes.event}>
                <Group gap="xs" wrap="wrap">
                  <Text size="sm" fw={600} component="time" dateTime={e.at}>
                    {formatDayTime(e.at, zone)}
                  </Text>
                  <Badge color={KIND_WORDS[e.kind].colour} size="sm">
                    {KIND_WORDS[e.kind].label}
                  </Badge>
                </Group>
                <Text fw={500}>{e.title}</Text>
                {e.detail && (
                  <Text size="sm" c="dimmed" style={{ wordBreak: 'break-word' }}>
                    {e.detail}
                  </Text>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}
