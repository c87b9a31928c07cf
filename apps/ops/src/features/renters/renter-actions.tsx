import {
  Alert,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { RenterPage } from '@ampere/domain/contract/ops-renters';
import { REASON_MAX_LENGTH, STAFF_TEXT_MAX_LENGTH } from '@ampere/domain/renter-review';
import { ApiError, errorText } from '../../shared/api.ts';
import { formatInstant } from '../../shared/dates.ts';
import { useCan } from '../../shared/me.ts';
import { endOfDay, liftRenter, listRenter, renterKeys, textRenter } from './renters-api.ts';

const fieldError = (err: unknown, field: string) =>
  err instanceof ApiError && err.field === field ? err.message : null;

/**
 * The renter's do-not-rent status, and for managers the forms to list them (a reason and an
 * expiry) or lift them (decision 095).
 */
export function DoNotRentPanel({ page, onDone }: { page: RenterPage; onDone: (text: string) => void }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState('');
  const live = page.doNotRent.history.find((l) => l.live) ?? null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: renterKeys.all });
  const add = useMutation({
    mutationFn: () => listRenter(page.renter.id, { reason: reason.trim(), until: endOfDay(until) }),
    onSuccess: async () => {
      setReason('');
      setUntil('');
      await refresh();
      onDone(`${page.renter.name} is on the do-not-rent list.`);
    },
  });
  const lift = useMutation({
    mutationFn: () => liftRenter(page.renter.id, { reason: null }),
    onSuccess: async () => {
      await refresh();
      onDone(`${page.renter.name} is off the do-not-rent list.`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Do not rent
          </Title>
          {live ? <Badge color="red.8">Listed</Badge> : <Badge color="gray.7">Not listed</Badge>}
        </Group>
        {live ? (
          <Text size="sm">
            Cannot book until {formatInstant(live.until)}: {live.reason} (listed by {live.listedBy}).
          </Text>
        ) : (
          <Text size="sm">This renter can book.</Text>
        )}
        {can('donotrent.edit') &&
          (live ? (
            <Group>
              <Button color="red.8" variant="outline" onClick={() => lift.mutate()} loading={lift.isPending}>
                Lift off the list
              </Button>
            </Group>
          ) : (
            <form onSubmit={submit} aria-label="Add to the do-not-rent list">
              <Stack gap="xs">
                <Textarea
                  label="Reason"
                  description="Staff read it; the renter never does."
                  required
                  value={reason}
                  onChange={(e) => setReason(e.currentTarget.value)}
                  maxLength={REASON_MAX_LENGTH}
                  autosize
                  minRows={2}
                  error={fieldError(add.error, 'reason')}
                />
                <TextInput
                  type="date"
                  label="Until"
                  description="The listing ends at the end of this day."
                  required
                  value={until}
                  onChange={(e) => setUntil(e.currentTarget.value)}
                  error={fieldError(add.error, 'until')}
                />
                <Group>
                  <Button type="submit" color="red.8" loading={add.isPending}>
                    Add to the list
                  </Button>
                </Group>
              </Stack>
            </form>
          ))}
        {[add.error, lift.error].map(
          (err, i) =>
            err &&
            !fieldError(err, 'reason') &&
            !fieldError(err, 'until') && (
              <Alert key={i} color="red" role="alert">
                {errorText(err)}
              </Alert>
            ),
        )}
      </Stack>
    </Paper>
  );
}

/** A one-off text to the renter about one of their trips here, sent as their trip messages are (decision 095). */
export function SendTextPanel({ page, onDone }: { page: RenterPage; onDone: (text: string) => void }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [tripId, setTripId] = useState(page.trips[0]?.tripId ?? '');
  const send = useMutation({
    mutationFn: () => textRenter(page.renter.id, { text: text.trim(), tripId: tripId || null }),
    onSuccess: async () => {
      setText('');
      await queryClient.invalidateQueries({ queryKey: renterKeys.renter(page.renter.id) });
      onDone(`Text sent to ${page.renter.name}.`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate();
  };
  if (page.trips.length === 0) return null;
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit} aria-label="Send a text">
        <Stack gap="xs">
          <Title order={2} size="h4">
            Send a text
          </Title>
          <NativeSelect
            label="About the trip"
            value={tripId}
            onChange={(e) => setTripId(e.currentTarget.value)}
            data={page.trips.map((t) => ({ value: t.tripId, label: `${t.reference} · ${t.locationName}` }))}
          />
          <Textarea
            label="Text"
            description={`${text.trim().length} of ${STAFF_TEXT_MAX_LENGTH} characters. Sent now, from the same number as the trip’s texts.`}
            required
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            maxLength={STAFF_TEXT_MAX_LENGTH}
            autosize
            minRows={2}
            error={fieldError(send.error, 'text')}
          />
          {send.error && !fieldError(send.error, 'text') && (
            <Alert color="red" role="alert">
              {errorText(send.error)}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={send.isPending}>
              Send text
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
