import { addressLine } from '@ampere/domain/format';
import { Alert, Anchor, Button, Center, Loader, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from '../../../shared/router/react.tsx';
import type { KeyPageResult } from '@ampere/domain/contract/verification';
import { groupThousands } from '@ampere/domain/format-number';
import { paths, patterns } from '../../../shared/paths.ts';
import { ApiError } from '../../../shared/api/client.ts';
import { formatInstantInZone as when } from '@ampere/domain/format';
import { keyPageKeys, sendCarCommand, useKeyPage } from '../api/digital-key.ts';
import { InspectionPhotos } from '../../inspections/public/inspection-photos.tsx';
import classes from './key.module.css';

/** /key/:token — the digital key (decision 023): the car, lock and unlock, and when the key works. */
export function KeyPage() {
  const { token } = useParams(patterns.key);
  const page = useKeyPage(token);
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const command = useMutation({
    mutationFn: (c: 'lock' | 'unlock') => sendCarCommand(token, c),
    onMutate: () => setError(null),
    onSuccess: (car) =>
      queryClient.setQueryData<KeyPageResult>(keyPageKeys.detail(token), (old) => (old ? { ...old, car } : old)),
    onError: (err) => {
      setError(err instanceof ApiError ? err.message : 'The car did not answer. Try again in a minute.');
      void queryClient.invalidateQueries({ queryKey: keyPageKeys.detail(token) });
    },
  });

  if (page.isPending) {
    return (
      <Center py={80}>
        <Loader aria-label="Loading your key" />
      </Center>
    );
  }
  if (page.error) {
    const missing = page.error instanceof ApiError && (page.error.status === 404 || page.error.status === 400);
    return (
      <div className={classes.page}>
        <Title order={1}>{missing ? 'This key does not exist.' : 'We could not load this key.'}</Title>
        <Text>{missing ? 'Open your trip to find its key.' : 'Check your connection and try again.'}</Text>
        <Button component={Link} to={paths.trips()} variant="light">
          My Trips
        </Button>
      </div>
    );
  }
  const k = page.data;
  const tz = k.pickup_location.timezone;
  const canUse = k.refusal === null;
  const next = k.car.locked ? 'unlock' : 'lock';
  return (
    <div className={classes.page}>
      {k.vehicle.image_url && (
        <img
          className={classes.photo}
          src={k.vehicle.image_url}
          alt={`${k.vehicle.year} ${k.vehicle.model}`}
          width={560}
          height={350}
        />
      )}
      <div>
        <Title order={1}>
          {k.vehicle.year} {k.vehicle.model}
        </Title>
        <Text c="dimmed" size="sm">
          {k.vehicle.color.charAt(0) + k.vehicle.color.slice(1).toLowerCase()} · VIN {k.vehicle.vin}
        </Text>
      </div>
      <section className={classes.panel} aria-label="Lock and unlock">
        <div className={classes.lock}>
          <span
            className={`${classes.state} ${k.car.locked ? '' : classes.stateOpen}`}
            role="status"
            aria-live="polite"
          >
            {k.car.locked ? 'Locked' : 'Unlocked'}
          </span>
          <Button size="lg" onClick={() => command.mutate(next)} loading={command.isPending} disabled={!canUse}>
            {next === 'unlock' ? 'Unlock' : 'Lock'}
          </Button>
        </div>
        {k.message && (
          <Alert color="orange" title="This key cannot open the car now">
            <Text size="sm">{k.message}</Text>
            <Anchor
              component={Link}
              to={paths.trip.detail(k.platform_id)}
              size="sm"
              fw={700}
              c="#a63e00"
              underline="always"
            >
              Open your trip
            </Anchor>
          </Alert>
        )}
        {error && (
          <Text c="red.9" size="sm" role="alert">
            {error}
          </Text>
        )}
      </section>
      <div className={classes.stats}>
        <div className={classes.stat}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            Battery
          </Text>
          <div className={classes.statValue}>{Math.round(k.car.battery_level * 100)}%</div>
        </div>
        <div className={classes.stat}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            Odometer
          </Text>
          <div className={classes.statValue}>{groupThousands(Math.round(k.car.odometer_miles))} mi</div>
        </div>
      </div>
      <InspectionPhotos source={{ kind: 'key', token }} />
      <section className={classes.panel} aria-labelledby="window-title">
        <Title order={2} size="h4" id="window-title">
          When this key works
        </Title>
        <Text size="sm">
          From {when(k.key.valid_from, tz)} until {when(k.key.valid_until, tz)}
        </Text>
        <Text size="sm" fw={600}>
          {k.pickup_location.name}
        </Text>
        <Text size="sm" c="dimmed">
          {addressLine(k.pickup_location)}
        </Text>
        <Anchor component={Link} to={paths.trip.detail(k.platform_id)} size="sm" c="ampere.8" underline="always">
          Trip {k.platform_id}
        </Anchor>
      </section>
    </div>
  );
}
