import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { TodayBoard } from '@ampere/domain/contract/ops-day';
import { api, errorText } from '../../shared/api.ts';
import { formatDayTime, formatDuration, formatLocalDate, formatTime } from '../../shared/dates.ts';
import { type BoardFreshness, useBoardChannel } from '../../shared/realtime/use-board-channel.ts';
import { staffLocationsQuery } from '../../shared/staff-locations.ts';
import { useTitle } from '../../shared/use-title.ts';
import { LocationPicker, useBoardLocation } from './location-picker.tsx';
import { BoardSection } from './board-section.tsx';
import { InspectionLink } from '../inspections/inspection-links.tsx';
import { ProblemBadges, TripCard } from './trip-card.tsx';

/** While the channel is away (or with Pusher, whose notices never come), the board reads itself this often. */
const FALLBACK_REFRESH_MS = 60_000;

const FRESHNESS_WORDS: Record<BoardFreshness, { text: string; colour: string }> = {
  connecting: { text: 'Connecting to live updates…', colour: 'gray.7' },
  live: { text: 'Live', colour: 'ampere' },
  reconnecting: { text: 'Reconnecting… (refreshing every minute meanwhile)', colour: '#a63e00' },
  refused: { text: 'Live updates refused; refreshing every minute', colour: '#a63e00' },
  timer: { text: 'Refreshing every minute', colour: 'gray.7' },
};

/**
 * The Today board (issue 29 §4, decisions 086 and 088): a location's day on its own clock, in
 * sections of cards, read again whenever the location's staff channel says something changed.
 */
export function TodayPage() {
  useTitle('Today');
  const queryClient = useQueryClient();
  const locations = useQuery(staffLocationsQuery);
  const [location, choose] = useBoardLocation(locations.data);
  const locationId = location?.id ?? null;
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: ['today', locationId] }),
    [queryClient, locationId],
  );
  const freshness = useBoardChannel(locationId, refresh);
  const board = useQuery({
    queryKey: ['today', locationId],
    queryFn: () => api<TodayBoard>(`/today?locationId=${encodeURIComponent(locationId!)}`),
    enabled: locationId !== null,
    refetchInterval: freshness === 'live' || freshness === 'connecting' ? false : FALLBACK_REFRESH_MS,
  });

  return (
    <Stack gap="md">
      <Title order={1}>Today</Title>
      {locations.isError ? (
        <Alert color="red" role="alert">
          {errorText(locations.error)}
        </Alert>
      ) : locations.isPending ? (
        <Loader role="status" aria-label="Loading your locations" />
      ) : locations.data.length === 0 ? (
        <Alert color="gray">You do not work at any location yet. An owner can add you to one on the Staff page.</Alert>
      ) : (
        <>
          <LocationPicker locations={locations.data} value={locationId} onChange={choose} />
          {board.isError ? (
            <Alert color="red" role="alert" title="The board could not be read">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{errorText(board.error)}</Text>
                <Button size="xs" variant="default" onClick={() => void board.refetch()}>
                  Try again
                </Button>
              </Stack>
            </Alert>
          ) : !board.data ? (
            <Loader role="status" aria-label="Loading the day" />
          ) : (
            <Board board={board.data} freshness={freshness} updatedAt={board.dataUpdatedAt} />
          )}
        </>
      )}
    </Stack>
  );
}

function Board({ board, freshness, updatedAt }: { board: TodayBoard; freshness: BoardFreshness; updatedAt: number }) {
  const zone = board.location.timezone;
  const now = Date.parse(board.now);
  const words = FRESHNESS_WORDS[freshness];
  const sections = [
    { id: 'pickups-today', title: 'Pickups today', count: board.pickupsToday.length },
    { id: 'pickups-tomorrow', title: 'Pickups tomorrow', count: board.pickupsTomorrow.length },
    { id: 'returns-today', title: 'Returns due today', count: board.returnsToday.length },
    { id: 'overdue', title: 'Overdue returns', count: board.overdue.length },
    { id: 'low-battery', title: 'Low battery before pickup', count: board.lowBattery.length },
    { id: 'needs-attention', title: 'Unpaid or unverified, picking up soon', count: board.needsAttention.length },
  ];
  const title = (id: string) => sections.find((s) => s.id === id)!.title;

  return (
    <Stack gap="lg">
      <div>
        <Text fw={600}>
          {board.location.name} · {formatLocalDate(board.today)}
        </Text>
        <Text size="sm" c="dimmed">
          Times are on the location’s clock ({zone}).
        </Text>
        <Group gap="xs" mt={4} role="status" aria-live="polite">
          <Text size="sm">Updated {formatTime(new Date(updatedAt).toISOString(), zone)}</Text>
          <Badge color={words.colour} tt="none">
            {words.text}
          </Badge>
        </Group>
      </div>
      <nav aria-label="Sections of the day">
        <Group gap="xs">
          {sections.map((s) => (
            <Anchor key={s.id} href={`#${s.id}`} size="sm" underline="always">
              {s.title} ({s.count})
            </Anchor>
          ))}
        </Group>
      </nav>

      <BoardSection id="pickups-today" title={title('pickups-today')} empty="No pickups today.">
        {board.pickupsToday.map((t) => (
          <TripCard
            key={t.tripId}
            when={formatTime(t.pickupAt, zone)}
            trip={t}
            renter={t.renter}
            car={t.car}
            needs={
              <>
                <ProblemBadges problems={t.problems} />
                <InspectionLink reference={t.reference} stage="check_out" />
              </>
            }
          />
        ))}
      </BoardSection>
      <BoardSection id="pickups-tomorrow" title={title('pickups-tomorrow')} empty="No pickups tomorrow.">
        {board.pickupsTomorrow.map((t) => (
          <TripCard
            key={t.tripId}
            when={formatDayTime(t.pickupAt, zone)}
            trip={t}
            renter={t.renter}
            car={t.car}
            needs={<ProblemBadges problems={t.problems} />}
          />
        ))}
      </BoardSection>
      <BoardSection id="returns-today" title={title('returns-today')} empty="No returns due today.">
        {board.returnsToday.map((t) => (
          <TripCard
            key={t.tripId}
            when={formatTime(t.returnAt, zone)}
            trip={t}
            renter={t.renter}
            car={t.car}
            needs={
              <>
                <Badge>Check the car in</Badge>
                <InspectionLink reference={t.reference} stage="check_in" />
              </>
            }
          />
        ))}
      </BoardSection>
      <BoardSection
        id="overdue"
        title={title('overdue')}
        empty={`No car is more than ${board.rules.overdueGraceMinutes} minutes late back.`}
      >
        {board.overdue.map((t) => (
          <TripCard
            key={t.tripId}
            when={`Due ${formatDayTime(t.returnAt, zone)}`}
            trip={t}
            renter={t.renter}
            car={t.car}
            needs={
              <Badge color="red.9" tt="none">
                {formatDuration(now - Date.parse(t.returnAt))} late: call the renter
              </Badge>
            }
          />
        ))}
      </BoardSection>
      <BoardSection
        id="low-battery"
        title={title('low-battery')}
        empty={`No car picking up today or tomorrow is below ${board.rules.lowBatteryPercent} %.`}
      >
        {board.lowBattery.map((c) => (
          <TripCard
            key={`${c.car.vin}-${c.tripId}`}
            when={`Pickup ${formatDayTime(c.nextPickupAt, zone)}`}
            trip={{ tripId: c.tripId, reference: c.reference }}
            car={c.car}
            needs={
              <Badge color="#a63e00" tt="none">
                Battery {Math.round(c.batteryPercent)} %: charge it
              </Badge>
            }
          />
        ))}
      </BoardSection>
      <BoardSection
        id="needs-attention"
        title={title('needs-attention')}
        empty={`Every trip picking up in the next ${board.rules.pickupSoonHours} hours is paid and verified.`}
      >
        {board.needsAttention.map((t) => (
          <TripCard
            key={t.tripId}
            when={formatDayTime(t.pickupAt, zone)}
            trip={t}
            renter={t.renter}
            car={t.car}
            needs={<ProblemBadges problems={t.problems} />}
          />
        ))}
      </BoardSection>
    </Stack>
  );
}
