import { Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { DayTrip } from '@ampere/domain/contract/ops-day';
import { formatPhone } from '@ampere/domain/phone';
import { paths } from '../../shared/paths.ts';
import { PROBLEM_WORDS, TRIP_STATUS_COLOURS, TRIP_STATUS_WORDS, carWords } from '../../shared/trip-words.ts';

/**
 * One row of the board, as a card (a phone at the lot reads cards, not a wide table): when, on the
 * location's clock; who; which car; what is needed; and the way to the trip's timeline.
 */
export function TripCard({
  when,
  trip,
  renter,
  car,
  needs,
}: {
  when: string;
  trip: { tripId: string; reference: string; status?: DayTrip['status'] };
  renter?: DayTrip['renter'];
  car: DayTrip['car'];
  needs: ReactNode;
}) {
  return (
    <Paper component="li" withBorder p="sm" radius="md">
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={700}>{when}</Text>
          {trip.status && (
            <Badge color={TRIP_STATUS_COLOURS[trip.status]} style={{ flexShrink: 0 }}>
              {TRIP_STATUS_WORDS[trip.status]}
            </Badge>
          )}
        </Group>
        {renter !== undefined && (
          <Text size="sm">
            {renter ? (
              <>
                {renter.name} ·{' '}
                <Anchor href={`tel:${renter.phone}`} size="sm">
                  {formatPhone(renter.phone)}
                </Anchor>
              </>
            ) : (
              'Renter’s account closed'
            )}
          </Text>
        )}
        <Text size="sm">
          {carWords(car)}{' '}
          <Text span c="dimmed" size="sm">
            · VIN {car.vin}
          </Text>
        </Text>
        <Group justify="space-between" gap="xs" align="flex-end">
          <Group gap={6}>{needs}</Group>
          <Anchor component={Link} to={paths.trip(trip.reference)} size="sm" fw={600}>
            Timeline of trip {trip.reference}
          </Anchor>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The badges of what a trip needs before its pickup, or that it is ready. */
export function ProblemBadges({ problems }: { problems: DayTrip['problems'] }) {
  if (problems.length === 0)
    return (
      <Badge color="ampere" variant="outline">
        Ready
      </Badge>
    );
  return problems.map((p) => (
    <Badge key={p} color="red.9">
      {PROBLEM_WORDS[p]}
    </Badge>
  ));
}
