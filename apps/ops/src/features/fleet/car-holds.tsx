import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import type { z } from 'zod';
import type { CarSummary, TimelineEntry } from '@ampere/domain/contract/ops-fleet';
import { HOLD_REASONS, type HoldReason } from '@ampere/domain/fleet';
import { formatInstantInZone } from '@ampere/domain/format';
import { ApiError, errorText } from '../../shared/api.ts';
import { DataGrid } from '../../shared/grid/data-grid.tsx';
import { useCan } from '../../shared/me.ts';
import { type HoldValues, cancelHold, changeHold, createHold, fleetKeys } from './fleet-api.ts';
import { IN_SERVICE_COLOUR } from './car-status.tsx';
import { fieldValueOf, instantOf } from './hold-times.ts';

type Entry = z.infer<typeof TimelineEntry>;
const column = createColumnHelper<Entry>();

const REASON_LABELS: Record<HoldReason, string> = {
  service: 'Service',
  cleaning: 'Cleaning',
  charging: 'Charging',
  other: 'Other',
};
const reasonWord = (label: string) => REASON_LABELS[label as HoldReason] ?? label;

/**
 * A car's timeline (past and future bookings and holds) and its holds: put on hold, change, end
 * early, cancel (the front desk and up). A clash is the server's 409, naming the trip.
 */
export function CarHolds({
  car,
  timeline,
  zoneNote,
  onChanged,
}: {
  car: CarSummary;
  timeline: Entry[];
  zoneNote: string;
  onChanged: (text: string) => void;
}) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [changing, setChanging] = useState<Entry | null>(null);
  const [rowError, setRowError] = useState<string | null>(null);
  const zone = car.timezone;
  const mayEdit = can('holds.edit');
  const act = useMutation({
    mutationFn: ({ entry, how }: { entry: Entry; how: 'end' | 'cancel' }) =>
      how === 'end' ? changeHold(entry.id, { endNow: true }) : cancelHold(entry.id),
    onSuccess: async (_hold, { how }) => {
      setRowError(null);
      await queryClient.invalidateQueries({ queryKey: fleetKeys.all });
      onChanged(how === 'end' ? 'The hold is ended: the car is free from now.' : 'The hold is cancelled.');
    },
    onError: (err) => setRowError(errorText(err)),
  });

  const columns = useMemo(
    () => [
      column.accessor((e) => (e.kind === 'booking' ? `Trip ${e.label}` : `Hold: ${reasonWord(e.label)}`), {
        id: 'what',
        header: 'What',
      }),
      column.accessor('status', {
        header: 'Status',
        cell: (c) => {
          const { kind, status } = c.row.original;
          const color = kind === 'booking' ? 'blue.9' : status === 'active' ? IN_SERVICE_COLOUR : 'gray.8';
          return <Badge color={color}>{status}</Badge>;
        },
      }),
      column.accessor('from', { header: 'From', cell: (c) => formatInstantInZone(c.getValue(), zone) }),
      column.accessor('until', { header: 'Until', cell: (c) => formatInstantInZone(c.getValue(), zone) }),
      column.accessor((e) => e.note ?? '', { id: 'note', header: 'Note', enableSorting: false }),
      ...(mayEdit
        ? [
            column.display({
              id: 'actions',
              header: () => <VisuallyHidden>Actions</VisuallyHidden>,
              cell: (c) => {
                const entry = c.row.original;
                if (entry.kind !== 'hold' || entry.status !== 'active') return null;
                const begun = new Date(entry.from) <= new Date();
                const name = `the ${reasonWord(entry.label).toLowerCase()} hold from ${formatInstantInZone(entry.from, zone)}`;
                return (
                  <Group gap={4} wrap="nowrap">
                    <Button
                      size="compact-xs"
                      variant="default"
                      aria-label={`Change ${name}`}
                      onClick={() => setChanging(entry)}
                    >
                      Change
                    </Button>
                    {begun && (
                      <Button
                        size="compact-xs"
                        variant="default"
                        aria-label={`End ${name} now`}
                        onClick={() => act.mutate({ entry, how: 'end' })}
                      >
                        End now
                      </Button>
                    )}
                    <Button
                      size="compact-xs"
                      variant="outline"
                      color="red.9"
                      aria-label={`Cancel ${name}`}
                      onClick={() => {
                        if (window.confirm('Cancel this hold? The car can be booked for its hours again.'))
                          act.mutate({ entry, how: 'cancel' });
                      }}
                    >
                      Cancel
                    </Button>
                  </Group>
                );
              },
            }),
          ]
        : []),
    ],
    [act, mayEdit, zone],
  );

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="car-timeline">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3" id="car-timeline">
            Timeline
          </Title>
          <Text size="sm" c="dimmed">
            Bookings and holds, latest first. {zoneNote}
          </Text>
        </div>
        {can('holds.create') && car.status !== 'retired' && !adding && (
          <Button onClick={() => setAdding(true)}>Put on hold</Button>
        )}
      </Group>
      {adding && car.status !== 'retired' && (
        <Paper withBorder p="sm" mt="sm" component="section" aria-labelledby="new-hold">
          <Title order={3} size="h4" id="new-hold" mb="xs">
            Put the car on hold
          </Title>
          <HoldForm
            zone={zone}
            submitLabel="Put on hold"
            onCancel={() => setAdding(false)}
            save={(values) => createHold(car.id, values as HoldValues)}
            onSaved={async () => {
              await queryClient.invalidateQueries({ queryKey: fleetKeys.all });
              setAdding(false);
              onChanged('The car is on hold: renters cannot book it for those hours.');
            }}
          />
        </Paper>
      )}
      {rowError && (
        <Alert
          color="red"
          role="alert"
          mt="sm"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setRowError(null)}
        >
          {rowError}
        </Alert>
      )}
      <div style={{ marginTop: 'var(--mantine-spacing-sm)' }}>
        <DataGrid
          caption="Bookings and holds"
          data={timeline}
          columns={columns}
          getRowId={(e) => `${e.kind}-${e.id}`}
          pageSize={10}
          minWidth={900}
          emptyText="No booking or hold yet."
        />
      </div>
      {changing && (
        <Modal opened onClose={() => setChanging(null)} title="Change the hold">
          <HoldForm
            zone={zone}
            initial={changing}
            stacked
            submitLabel="Save the hold"
            onCancel={() => setChanging(null)}
            save={(values) => changeHold(changing.id, values)}
            onSaved={async () => {
              await queryClient.invalidateQueries({ queryKey: fleetKeys.all });
              setChanging(null);
              onChanged('The hold is changed.');
            }}
          />
        </Modal>
      )}
    </Paper>
  );
}

/** A hold's reason, period (on the location's clock) and note; a refusal sits beside its field. */
function HoldForm({
  zone,
  initial,
  stacked = false,
  submitLabel,
  onCancel,
  save,
  onSaved,
}: {
  zone: string;
  initial?: Entry;
  /** One field a line (in a dialog), rather than three side by side. */
  stacked?: boolean;
  submitLabel: string;
  onCancel: () => void;
  /** Adding sends every value; a change only the times that changed. */
  save: (values: Partial<HoldValues>) => Promise<unknown>;
  onSaved: () => Promise<void>;
}) {
  const [reason, setReason] = useState<HoldReason>((initial?.label as HoldReason | undefined) ?? 'service');
  const startValue = initial ? fieldValueOf(initial.from, zone) : '';
  const endValue = initial ? fieldValueOf(initial.until, zone) : '';
  const [from, setFrom] = useState(startValue);
  const [until, setUntil] = useState(endValue);
  // A hold that has begun keeps its start: only its end, reason and note change.
  const begun = initial !== undefined && new Date(initial.from) <= new Date();
  const [note, setNote] = useState(initial?.note ?? '');
  const [local, setLocal] = useState<{ field: string; text: string } | null>(null);
  const mutation = useMutation({ mutationFn: save, onSuccess: onSaved });
  const err = mutation.error;
  const field = err instanceof ApiError ? err.field : null;
  const errorFor = (name: string) =>
    local?.field === name ? local.text : err && field === name ? errorText(err) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const startsAt = instantOf(from, zone);
    const endsAt = instantOf(until, zone);
    if (!startsAt) return setLocal({ field: 'startsAt', text: 'Choose when the hold starts.' });
    if (!endsAt) return setLocal({ field: 'endsAt', text: 'Choose when the hold ends.' });
    setLocal(null);
    // A change sends only the times that changed: the stored ones may carry seconds the field drops.
    mutation.mutate({
      reason,
      note: note.trim(),
      ...(initial && from === startValue ? {} : { startsAt }),
      ...(initial && until === endValue ? {} : { endsAt }),
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={stacked ? 1 : { base: 1, sm: 3 }}>
          <NativeSelect
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value as HoldReason)}
            data={HOLD_REASONS.map((r) => ({ value: r, label: REASON_LABELS[r] }))}
            error={errorFor('reason')}
          />
          <TextInput
            type="datetime-local"
            label="Starts"
            description={begun ? 'Begun: only its end can change' : `On the lot’s clock (${zone})`}
            disabled={begun}
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            error={errorFor('startsAt')}
            required
          />
          <TextInput
            type="datetime-local"
            label="Ends"
            description={`On the lot’s clock (${zone})`}
            value={until}
            onChange={(e) => setUntil(e.currentTarget.value)}
            error={errorFor('endsAt')}
            required
          />
        </SimpleGrid>
        <Textarea
          label="Note"
          description="What the car is in for, for whoever reads the timeline"
          value={note}
          maxLength={500}
          autosize
          minRows={2}
          onChange={(e) => setNote(e.currentTarget.value)}
          error={errorFor('note')}
        />
        {err && !['reason', 'startsAt', 'endsAt', 'note'].includes(field ?? '') && (
          <Alert color="red" role="alert">
            {errorText(err)}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={mutation.isPending}>
            {submitLabel}
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
