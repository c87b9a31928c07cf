import { Alert, Button, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { User } from '@ampere/domain/contract/account';
import type { Reservation } from '@ampere/domain/contract/booking';
import {
  type KeyAction,
  type Outstanding,
  accessKeyDisabled,
  isKeyTripStatus,
  outstandingForKey,
} from '@ampere/domain/verification';
import { paths } from '../../../shared/paths.ts';
import { ApiError } from '../../../shared/api/client.ts';
import { formatInstantInZone as when } from '@ampere/domain/format';
import { actOnKey } from '../api/digital-key.ts';
import classes from './digital-key-block.module.css';

const OUTSTANDING: Record<Outstanding, string> = {
  payment: 'pay for the trip',
  license: "verify your driver's license",
  insurance: 'connect your insurance',
  deposit: 'have the security deposit held',
};

/**
 * Spec 2 (trip detail): the digital key. Access Key opens the key page in a new tab; it is disabled
 * while the trip is unpaid or the license, insurance or deposit is outstanding (spec 4), and says
 * which. The renter can pause, resume, replace or revoke the key.
 */
export function DigitalKeyBlock({ reservation, user }: { reservation: Reservation; user: User | null }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const action = useMutation({
    mutationFn: (a: KeyAction) => actOnKey(reservation.platform_id, a),
    onMutate: () => setError(null),
    onSuccess: (r) => queryClient.setQueryData(['reservations', reservation.platform_id], r),
    onError: (err) => setError(err instanceof ApiError ? err.message : 'That did not work. Please try again.'),
  });
  if (!isKeyTripStatus(reservation.status) && reservation.status !== 'Started') return null;
  const inputs = { reservation, user, insurance: reservation.insurance_verifications };
  const disabled = accessKeyDisabled(inputs);
  const missing = outstandingForKey(inputs);
  const key = reservation.key;
  const tz = reservation.pickup_location.timezone;
  const run = (a: KeyAction) => action.mutate(a);
  return (
    <section className={classes.panel} aria-labelledby="key-title">
      <Title order={2} size="h4" id="key-title">
        Digital Key
      </Title>
      {disabled && missing.length > 0 && (
        <Text size="sm">To get your key, {missing.map((m) => OUTSTANDING[m]).join(', ')}.</Text>
      )}
      {key && !disabled && (
        <Text size="sm">
          {key.status === 'paused' ? 'Paused. ' : ''}Works from {when(key.valid_from, tz)} until{' '}
          {when(key.valid_until, tz)}.
        </Text>
      )}
      <div className={classes.keyActions}>
        {key && !disabled ? (
          <Button component="a" href={paths.key(key.token)} target="_blank" rel="noopener">
            Access Key
          </Button>
        ) : (
          <Button disabled>Access Key</Button>
        )}
        {key && !disabled && key.status === 'active' && (
          <Button
            variant="light"
            onClick={() => run('PAUSE_KEY')}
            loading={action.isPending && action.variables === 'PAUSE_KEY'}
          >
            Pause key
          </Button>
        )}
        {key && !disabled && key.status === 'paused' && (
          <Button
            variant="light"
            onClick={() => run('UNPAUSE_KEY')}
            loading={action.isPending && action.variables === 'UNPAUSE_KEY'}
          >
            Resume key
          </Button>
        )}
        {!disabled && (
          <Button
            variant="light"
            onClick={() => run('CREATE_NEW_KEY')}
            loading={action.isPending && action.variables === 'CREATE_NEW_KEY'}
          >
            New key
          </Button>
        )}
        {key && !disabled && (
          <Button
            variant="subtle"
            color="red"
            c="red.9"
            onClick={() => window.confirm('Revoke this key? It stops opening the car at once.') && run('REVOKE_KEY')}
          >
            Revoke key
          </Button>
        )}
      </div>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
    </section>
  );
}
