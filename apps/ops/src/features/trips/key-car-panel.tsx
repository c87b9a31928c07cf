import { Alert, Badge, Button, Group, Loader, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  CAR_COMMANDS,
  type CarCommand,
  STAFF_KEY_VERBS,
  type StaffKeyVerb,
  staffCarCommandRefusal,
  staffKeyRefusal,
} from '@ampere/domain/car-actions';
import type { CarReading, KeyAndCar, SupportNote } from '@ampere/domain/contract/ops-car';
import { errorText } from '../../shared/api.ts';
import { formatDayTime } from '../../shared/dates.ts';
import { useCan } from '../../shared/me.ts';
import { actOnKey, closeNote, commandCar, keyCarKeys, keyCarQuery } from './key-car-api.ts';
import classes from './trip-timeline.module.css';

const VERB_LABELS: Record<StaffKeyVerb, string> = {
  pause: 'Pause key',
  resume: 'Resume key',
  revoke: 'Revoke key',
  replace: 'Replace key',
};

const DONE: Record<StaffKeyVerb | CarCommand, string> = {
  pause: 'The key is paused: the renter’s key page says so and will not open the car.',
  resume: 'The key works again.',
  revoke: 'The key is revoked: its link no longer opens the car.',
  replace: 'A new key is issued and the renter is told; the old link no longer opens the car.',
  lock: 'The car is locked.',
  unlock: 'The car is unlocked.',
};

/** What staff confirm before a key action that cannot be undone. */
const CONFIRM: Partial<Record<StaffKeyVerb, { title: string; body: string; button: string }>> = {
  revoke: {
    title: 'Revoke the key?',
    body: 'The renter’s key link stops opening the car at once, and cannot be made to work again. Replace the key to give them a new one.',
    button: 'Revoke the key',
  },
  replace: {
    title: 'Replace the key?',
    body: 'The renter’s current key link stops working and a new key is issued. The renter gets a text (and an email, when they gave one) pointing to the new key on their trip page.',
    button: 'Replace the key',
  },
};

const coordinate = (value: number, positive: string, negative: string) =>
  `${Math.abs(value).toFixed(5)}° ${value >= 0 ? positive : negative}`;

/**
 * The key and the car of a trip (issue 30 §5, decision 096): the key's state with Pause, Resume,
 * Revoke and Replace; the car's lock, battery, odometer and position with Refresh, Lock and
 * Unlock; and the trip's support notes. What a role cannot do is not offered; what the trip's
 * state does not allow is not offered either, by the same rules the API holds.
 */
export function KeyCarPanel({ tripId }: { tripId: string }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const panel = useQuery(keyCarQuery(tripId));
  const [confirming, setConfirming] = useState<StaffKeyVerb | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  const settle = async (data: KeyAndCar, text: string) => {
    queryClient.setQueryData(keyCarKeys.panel(tripId), data);
    setNotice({ ok: true, text });
    await queryClient.invalidateQueries({ queryKey: ['timeline'] });
  };
  const fail = async (err: unknown) => {
    setNotice({ ok: false, text: errorText(err) });
    // A failed unlock opened a note: show it, and the timeline's record of it.
    await queryClient.invalidateQueries({ queryKey: keyCarKeys.panel(tripId) });
    await queryClient.invalidateQueries({ queryKey: ['timeline'] });
  };
  const keyAction = useMutation({
    mutationFn: (verb: StaffKeyVerb) => actOnKey(tripId, verb),
    onSuccess: (data, verb) => settle(data, DONE[verb]),
    onError: fail,
    onSettled: () => setConfirming(null),
  });
  const carAction = useMutation({
    mutationFn: (command: CarCommand) => commandCar(tripId, command),
    onSuccess: (data, command) => settle(data, DONE[command]),
    onError: fail,
  });
  const noteAction = useMutation({
    mutationFn: (noteId: string) => closeNote(tripId, noteId),
    onSuccess: (data) => settle(data, 'The note is closed.'),
    onError: fail,
  });
  const busy = keyAction.isPending || carAction.isPending || noteAction.isPending;

  const ask = (verb: StaffKeyVerb) => {
    setNotice(null);
    if (CONFIRM[verb]) setConfirming(verb);
    else keyAction.mutate(verb);
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="key-car">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="key-car">
          Key and car
        </Title>
        <Button
          size="compact-sm"
          variant="default"
          loading={panel.isFetching}
          onClick={() => {
            setNotice(null);
            void panel.refetch();
          }}
        >
          Refresh
        </Button>
      </Group>
      {notice && (
        <Alert color={notice.ok ? 'teal' : 'red'} role={notice.ok ? 'status' : 'alert'} mb="sm">
          {notice.text}
        </Alert>
      )}
      {panel.isError ? (
        <Alert color="red" role="alert">
          {errorText(panel.error)}
        </Alert>
      ) : panel.isPending ? (
        <Loader role="status" aria-label="Reading the key and the car" size="sm" />
      ) : (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <KeyPart data={panel.data} mayAct={can('keys.manage')} busy={busy} onAct={ask} />
            <CarPart
              data={panel.data}
              mayAct={can('cars.command')}
              busy={busy}
              onAct={(command) => {
                setNotice(null);
                carAction.mutate(command);
              }}
            />
          </SimpleGrid>
          <Notes
            notes={panel.data.notes}
            zone={panel.data.trip.timezone}
            mayClose={can('support.resolve')}
            busy={busy}
            onClose={(id) => {
              setNotice(null);
              noteAction.mutate(id);
            }}
          />
        </Stack>
      )}
      {confirming && CONFIRM[confirming] && (
        <Modal opened onClose={() => setConfirming(null)} title={CONFIRM[confirming].title}>
          <Text size="sm">{CONFIRM[confirming].body}</Text>
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={() => setConfirming(null)}>
              Keep the key
            </Button>
            <Button color="red.9" loading={keyAction.isPending} onClick={() => keyAction.mutate(confirming)}>
              {CONFIRM[confirming].button}
            </Button>
          </Group>
        </Modal>
      )}
    </Paper>
  );
}

function KeyPart({
  data,
  mayAct,
  busy,
  onAct,
}: {
  data: KeyAndCar;
  mayAct: boolean;
  busy: boolean;
  onAct: (verb: StaffKeyVerb) => void;
}) {
  const { key, trip } = data;
  const live = key ? { status: key.status, pausedBy: key.pausedBy } : null;
  const verbs = STAFF_KEY_VERBS.filter((v) => staffKeyRefusal(v, trip, live) === null);
  const words = !key
    ? 'No live key'
    : key.status === 'active'
      ? 'Active'
      : key.pausedBy === 'staff'
        ? 'Paused by the desk'
        : 'Paused by the renter';
  return (
    <Stack gap={6}>
      <Group gap="xs">
        <Title order={3} size="h5">
          Digital key
        </Title>
        <Badge color={!key ? 'gray.7' : key.status === 'active' ? 'teal.9' : '#a63e00'}>{words}</Badge>
      </Group>
      {key && (
        <Text size="sm">
          Opens the car {formatDayTime(key.validFrom, trip.timezone)} to {formatDayTime(key.validUntil, trip.timezone)}
        </Text>
      )}
      {mayAct && verbs.length > 0 && (
        <Group gap="xs">
          {verbs.map((verb) => (
            <Button
              key={verb}
              size="compact-sm"
              variant={verb === 'revoke' ? 'outline' : 'default'}
              color={verb === 'revoke' ? 'red.9' : undefined}
              disabled={busy}
              onClick={() => onAct(verb)}
            >
              {VERB_LABELS[verb]}
            </Button>
          ))}
        </Group>
      )}
    </Stack>
  );
}

function CarPart({
  data,
  mayAct,
  busy,
  onAct,
}: {
  data: KeyAndCar;
  mayAct: boolean;
  busy: boolean;
  onAct: (command: CarCommand) => void;
}) {
  const { car, carMessage, trip } = data;
  const commands = CAR_COMMANDS.filter((c) => staffCarCommandRefusal(c, trip) === null);
  return (
    <Stack gap={6}>
      <Group gap="xs">
        <Title order={3} size="h5">
          The car
        </Title>
        {car && <Badge color={car.locked ? 'blue.9' : '#a63e00'}>{car.locked ? 'Locked' : 'Unlocked'}</Badge>}
      </Group>
      {car ? (
        <Reading car={car} zone={trip.timezone} />
      ) : (
        <Alert color="yellow" role="status" p="xs">
          {carMessage}
        </Alert>
      )}
      {mayAct && commands.length > 0 && (
        <Group gap="xs">
          {commands.map((command) => (
            <Button key={command} size="compact-sm" variant="default" disabled={busy} onClick={() => onAct(command)}>
              {command === 'lock' ? 'Lock' : 'Unlock'}
            </Button>
          ))}
        </Group>
      )}
    </Stack>
  );
}

function Reading({ car, zone }: { car: CarReading; zone: string }) {
  return (
    <SimpleGrid cols={2} spacing={4} component="dl" className={classes.facts}>
      <div>
        <dt>Battery</dt>
        <dd>{car.batteryPercent}%</dd>
      </div>
      <div>
        <dt>Odometer</dt>
        <dd>{car.odometerMiles.toLocaleString()} mi</dd>
      </div>
      <div>
        <dt>Position</dt>
        <dd>
          {coordinate(car.latitude, 'N', 'S')}, {coordinate(car.longitude, 'E', 'W')}
        </dd>
      </div>
      <div>
        <dt>From the lot</dt>
        <dd>{car.milesFromLot < 0.1 ? 'At the lot' : `${car.milesFromLot} mi`}</dd>
      </div>
      <div>
        <dt>Read</dt>
        <dd>{formatDayTime(car.readAt, zone)}</dd>
      </div>
    </SimpleGrid>
  );
}

function Notes({
  notes,
  zone,
  mayClose,
  busy,
  onClose,
}: {
  notes: SupportNote[];
  zone: string;
  mayClose: boolean;
  busy: boolean;
  onClose: (id: string) => void;
}) {
  const open = notes.filter((n) => n.resolvedAt === null);
  const closed = notes.length - open.length;
  return (
    <Stack gap={6}>
      <Title order={3} size="h5">
        Support notes ({open.length} open)
      </Title>
      {open.length === 0 ? (
        <Text size="sm" c="dimmed">
          No open notes.{closed > 0 ? ` ${closed} closed.` : ''}
        </Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {open.map((n) => (
            <Paper component="li" key={n.id} withBorder p="xs" bg="yellow.0">
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <div style={{ flex: 1, minWidth: 0 }}>
                  <Text size="sm" fw={600}>
                    {n.title}
                  </Text>
                  <Text size="sm" style={{ wordBreak: 'break-word' }}>
                    {n.detail}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDayTime(n.createdAt, zone)}
                    {n.staffName ? ` · ${n.staffName}` : ' · from the renter’s key page'}
                  </Text>
                </div>
                {mayClose && (
                  <Button
                    size="compact-xs"
                    variant="default"
                    style={{ flexShrink: 0 }}
                    disabled={busy}
                    aria-label={`Close the note: ${n.title}, ${formatDayTime(n.createdAt, zone)}`}
                    onClick={() => onClose(n.id)}
                  >
                    Close
                  </Button>
                )}
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
